// Hand-made pages with the cases accessible names get wrong most often.
const doc = (title: string, body: string, head = "") =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`

export const trickyNames = doc(
  "Tricky names",
  `<h1>Names <small>and roles</small></h1>
  <button><span class="method">GET</span><span class="path">/planets</span><div class="summary">Get all planets</div></button>
  <button><span style="display:inline-block">One</span><span style="display:inline-block">Two</span></button>
  <button>Visible<span style="display:none"> hidden-by-display</span><span hidden> hidden-attr</span><span style="visibility:hidden"> invisible</span><span aria-hidden="true"> aria-hidden</span></button>
  <span id="hidden-label" hidden>Label from a hidden element</span>
  <button aria-labelledby="hidden-label">x</button>
  <span id="first">First</span><span id="second">Second</span>
  <button aria-labelledby="first second">ignored content</button>
  <button aria-label="Close dialog">×</button>
  <label>Wrapped label <input type="text" name="wrapped"></label>
  <label for="by-for">Label by for</label><input id="by-for">
  <input placeholder="limit">
  <input title="Title only">
  <input type="search" placeholder="Search planets">
  <textarea placeholder="Your message"></textarea>
  <input type="checkbox" id="terms"><label for="terms">I accept the <a href="#terms">terms</a></label>
  <input type="submit" value="Send it">
  <input type="reset">
  <input type="button" value="Plain input button">
  <input type="image" alt="Go" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
  <input type="file" id="upload"><label for="upload">Upload a file</label>
  <img alt="A red planet" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="10" height="10">
  <img alt="" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="10" height="10">
  <svg width="10" height="10" role="img"><title>Saturn icon</title><circle cx="5" cy="5" r="4"/></svg>
  <figure><img alt="Chart" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="10" height="10"><figcaption>Figure one: moons</figcaption></figure>
  <fieldset><legend>Shipping</legend><label><input type="radio" name="ship" checked> Standard</label><label><input type="radio" name="ship"> Express</label></fieldset>
  <fieldset disabled><legend>Locked <button>Legend button</button></legend><input aria-label="Locked field"><button>Locked button</button></fieldset>
  <div aria-disabled="true"><div role="button" tabindex="0">Aria disabled child</div></div>
  <label>Show <select><option>10</option><option selected>25</option></select> entries</label>
  <label>Rows <input type="number" value="7"> per page</label>
  <a href="#a">Link <strong>with</strong> <em>inline</em> parts</a>
  <a href="#b"><img alt="Logo" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="10" height="10"> Home</a>
  <button class="icon" title="Settings"></button>
  <style>.before::before { content: "Before "; } .after::after { content: " after"; display: block } .icon { width: 20px; height: 20px; }</style>
  <button class="before">Middle</button>
  <button class="after">Content</button>
  <details><summary>More options</summary><p>Hidden until open</p></details>
  <details open><summary>Open section</summary><p>Shown because the details element is open.</p></details>
  <table><caption>Planets by moons</caption>
    <thead><tr><th>Planet</th><th>Moons</th></tr></thead>
    <tbody><tr><th>Earth</th><td>1</td></tr><tr><th>Mars</th><td>2</td></tr></tbody></table>
  <ul role="presentation"><li>Presentational item</li></ul>
  <ol><li>First step</li><li>Second <button>Do it</button></li></ol>
  <section aria-label="Named region"><p>Inside a region</p></section>
  <nav aria-label="Main"><a href="#one">One</a> <a href="#two">Two</a></nav>
  <div role="checkbox" aria-checked="mixed" tabindex="0">Partly</div>
  <div role="switch" aria-checked="true" tabindex="0">Dark mode</div>
  <div role="tablist"><div role="tab" aria-selected="true">Overview</div><div role="tab" aria-selected="false">Details</div></div>
  <h2 aria-label="Custom heading label">Ignored heading text</h2>
  <div role="heading" aria-level="4">Div heading</div>
  <button>Line<br>break</button>
  <button>   lots   of
      whitespace   </button>
  <p>A paragraph with <code>inline code</code> and a <a href="#c">link in text</a>.</p>
  <pre><code>{ "id": 1, "name": "Mercury" }</code></pre>
  <output>Status text</output>
  <div role="grid" aria-label="Prices">
    <div role="row"><div role="columnheader" aria-sort="ascending">Price <input aria-label="Price filter"></div><div role="columnheader">Item <span><input placeholder="Item filter"></span></div></div>
    <div role="row" aria-selected="true"><div role="gridcell" aria-label="Five dollars">5</div><div role="gridcell">Pen</div></div>
  </div>
  <table><tr><th>Day</th></tr><tr><td aria-label="Named cell">7</td></tr></table>
  <div role="listbox" aria-label="Days"><div role="option" aria-label="March 3, 2025" aria-selected="true">3</div><div role="option" aria-label="March 4, 2025">4</div></div>
  <div role="textbox" aria-label="Code input" contenteditable="true"><div>x = 1</div></div>
  <a href="#now" aria-current="page">Current page link</a>
  <input aria-label="Invalid required" required aria-invalid="true"> <input aria-label="Read only field" readonly value="fixed">
  <div id="host"></div>
  <script>
    const host = document.getElementById("host")
    const shadow = host.attachShadow({ mode: "open" })
    shadow.innerHTML = '<button><slot></slot> inside shadow</button><label>Shadow field <input></label>'
    host.innerHTML = '<b>Slotted</b>'
  </script>`
)

/** A page whose text is huge: a 1 MB text node, a 100k-character attribute, deep nesting. */
export const hugePage = () => {
  const big = "word ".repeat(200_000)
  const label = "L".repeat(100_000)
  let nested = "<span>deep</span>"
  for (let i = 0; i < 300; i++) nested = `<div role="treeitem" aria-level="1">${nested}</div>`
  return doc(
    "Huge",
    `<p id="big">${big}</p><button aria-label="${label}">Long label</button><div role="tree">${nested}</div>
     <pre>${"x".repeat(50_000)}</pre>`
  )
}
