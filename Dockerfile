# The image of docs/cluster.md's Kubernetes Job: the release binary on slim Debian.
#   docker build -t registry.example.org/livingblocks:0.1.0 .
FROM rust:1.89-slim-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo install --locked --path . --root /usr/local

FROM debian:bookworm-slim
COPY --from=build /usr/local/bin/livingblocks /usr/local/bin/livingblocks
CMD ["livingblocks", "--help"]
