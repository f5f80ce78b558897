//! report.html: report.md's text as one HTML file that a browser opens anywhere (a cluster
//! node, a mail, a phone): the plots and board diagrams inline, nothing fetched from outside
//! the file, tables sorted by a click on a column's head, and a page that prints.

use pulldown_cmark::{html, CowStr, Event, Options, Parser, Tag, TagEnd};

/// Page style: the text column of a readable width, wide tables scrolled rather than
/// squeezed, figures no wider than the screen, and no scroll boxes on paper.
const STYLE: &str = "\
body{font-family:system-ui,sans-serif;line-height:1.5;margin:0 auto;max-width:60rem;padding:0 1rem;color:#222}\
h1,h2,h3{line-height:1.2}\
table{border-collapse:collapse;display:block;overflow-x:auto;margin:1rem 0;font-size:.9rem}\
th,td{border:1px solid #ccc;padding:.25rem .5rem}\
th{background:#f3f3f3;cursor:pointer;user-select:none}\
th[aria-sort=ascending]::after{content:' ▲'}th[aria-sort=descending]::after{content:' ▼'}\
tr:nth-child(even) td{background:#fafafa}\
svg{max-width:100%;height:auto;display:block;margin:1rem 0}\
code{background:#f3f3f3;padding:0 .2rem;overflow-wrap:anywhere}\
@media print{table{display:table;overflow:visible}th{cursor:auto}th::after{content:''}}";

/// Sorts a table's body rows by a column when its head is clicked: by number where every
/// cell of the column reads as one (a `%`, a sign or thousands separators allowed), else by
/// text; a second click reverses the order.
const SCRIPT: &str = "\
document.querySelectorAll('table').forEach(function(t){\
var heads=t.querySelectorAll('thead th');\
heads.forEach(function(th,i){th.addEventListener('click',function(){\
var body=t.tBodies[0];if(!body)return;\
var rows=Array.prototype.slice.call(body.rows);\
var num=function(r){var s=(r.cells[i]?r.cells[i].textContent:'').trim().replace(/,/g,'');\
return /^[+-]?[0-9]+(\\.[0-9]+)?\\s*%?$/.test(s)?parseFloat(s):null};\
var numeric=rows.every(function(r){return num(r)!==null});\
var up=th.getAttribute('aria-sort')!=='ascending';\
heads.forEach(function(h){h.removeAttribute('aria-sort')});\
th.setAttribute('aria-sort',up?'ascending':'descending');\
rows.sort(function(a,b){var c=numeric?num(a)-num(b):\
(a.cells[i]?a.cells[i].textContent:'').localeCompare(b.cells[i]?b.cells[i].textContent:'');\
return up?c:-c});\
rows.forEach(function(r){body.appendChild(r)})})})});";

/// The page of `markdown`, each image the report links (`plots/….svg`) put inline from
/// `svg`, which reads a plot by its link; a plot it cannot give is named in its place.
pub fn page(markdown: &str, svg: impl Fn(&str) -> Option<String>) -> String {
    let mut events = Vec::new();
    // The image being replaced: its alt text is dropped with it.
    let mut in_image = false;
    for event in Parser::new_ext(markdown, Options::ENABLE_TABLES) {
        match event {
            Event::Start(Tag::Image { dest_url, .. }) => {
                in_image = true;
                let inline = svg(&dest_url).map(|s| strip_prolog(&s).to_string());
                events.push(Event::Html(CowStr::from(inline.unwrap_or_else(|| {
                    format!("<p><em>(plot {} not available)</em></p>", escape(&dest_url))
                }))));
            }
            Event::End(TagEnd::Image) => in_image = false,
            _ if in_image => {}
            e => events.push(e),
        }
    }
    let mut body = String::new();
    html::push_html(&mut body, events.into_iter());
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>livingblocks report</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}\
         <script>{SCRIPT}</script>\n</body>\n</html>\n"
    )
}

/// An SVG file's markup from its `<svg` on (an XML declaration has no place inside HTML).
fn strip_prolog(svg: &str) -> &str {
    svg.find("<svg").map_or(svg, |i| &svg[i..])
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    const MD: &str = "# A report\n\nSome *text*.\n\n![margins](plots/m.svg)\n\n\
                      | method | share |\n|---|---:|\n| benson | 1.7 % |\n| mp95 | 1.4 % |\n\n\
                      ![gone](plots/gone.svg)\n";

    fn plots(url: &str) -> Option<String> {
        (url == "plots/m.svg").then(|| {
            "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" \
             viewBox=\"0 0 1 1\"><rect/></svg>"
                .to_string()
        })
    }

    #[test]
    fn plots_are_inline_and_tables_are_tables() {
        let html = page(MD, plots);
        assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
        assert!(html.contains("<h1>A report</h1>"), "{html}");
        assert!(html.contains("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox"));
        assert!(!html.contains("<?xml"), "the prolog is dropped");
        assert!(!html.contains("<img"), "nothing is fetched: {html}");
        assert!(
            !html.contains(">margins<"),
            "the alt text goes with the image"
        );
        assert!(
            html.contains("<th>method</th>") && html.contains(">1.7 %</td>"),
            "{html}"
        );
        assert!(html.contains("(plot plots/gone.svg not available)"));
        assert_eq!(html.matches("<table>").count(), 1);
    }

    #[test]
    fn a_page_is_the_same_bytes_every_time() {
        assert_eq!(page(MD, plots), page(MD, plots));
    }

    #[test]
    fn the_page_names_no_address_outside_itself() {
        let html = page(MD, plots);
        // The SVG namespace is a name, not something fetched; nothing else is a URL.
        let urls = html.matches("http").count();
        assert_eq!(
            urls,
            html.matches("http://www.w3.org/2000/svg").count(),
            "{html}"
        );
        assert!(!html.contains("src=") && !html.contains("<link"), "{html}");
    }
}
