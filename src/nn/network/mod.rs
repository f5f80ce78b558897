//! The network, as KataGo's `cpp/neuralnet` holds it: the model file read into a typed
//! description of its layers (`model`), the forward pass over prepared weights (`forward`),
//! and the post-processing of its raw outputs into an answer (`output`).

pub mod forward;
pub mod model;
pub mod output;
