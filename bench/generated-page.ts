// Pages for the observation benchmark: an order list of exactly N elements inside <body>, mixing what
// real apps have (headings, links, buttons, labelled inputs, lists, test ids, display:none details).

/** Elements one order card holds, the <section> included. */
const ELEMENTS_PER_CARD = 24

const STATUSES = ["Pending", "Shipped", "Delivered", "Returned"] as const

const card = (index: number) => {
  // A test id on every tenth card: a container whose text the test-id listing reads.
  const cardTestId = index % 10 === 0 ? ` data-testid="card-${index}"` : ""
  const status = STATUSES[index % STATUSES.length] ?? "Pending"
  const day = String((index % 28) + 1).padStart(2, "0")
  // Both ways of labelling a field, on alternate cards.
  const field =
    index % 2 === 0
      ? `<label for="qty-${index}">Quantity</label><input id="qty-${index}" name="qty-${index}" type="number" value="1" data-testid="qty-${index}">`
      : `<label><input type="checkbox" name="gift-${index}"${index % 3 === 0 ? " checked" : ""}> Gift wrap</label>`
  const edit = index % 4 === 0 ? `<button type="button" disabled>Edit</button>` : `<button type="button" data-testid="edit-${index}">Edit</button>`
  return `<section class="card" aria-label="Order ${index}"${cardTestId}>
<h3>Order ${index}</h3>
<div class="meta"><span class="badge">#${index}</span><span>${status}</span></div>
<p>Placed by <a href="/customers/${index}">Customer ${index}</a> on <time>2024-01-${day}</time> <small>(web)</small>.</p>
${field}
<ul><li>Widget</li><li>Gadget <em>x2</em></li><li>Gizmo</li></ul>
<div class="actions"><a href="/orders/${index}" data-testid="open-${index}">Details</a>${edit}<span class="price">Total <strong>${(index % 97) + 3}.00</strong></span></div>
<div class="details" style="display:none"><span>Internal note ${index}</span><button type="button" data-testid="hidden-${index}">Hidden action</button></div>
</section>`
}

/** Everything outside the cards, with how many elements it holds besides the footer's filler. */
const HEADER = `<header><nav aria-label="Main"><a href="/" data-testid="nav-home">Home</a><a href="/orders" data-testid="nav-orders">Orders</a><a href="/settings" data-testid="nav-settings">Settings</a></nav>
<label for="search">Search orders</label><input id="search" type="search" placeholder="Order number" data-testid="search"></header>`
const HEADER_ELEMENTS = 7
const MAIN_OPEN = `<main data-testid="order-list"><h1>Orders</h1>`
const MAIN_ELEMENTS = 2
const FOOTER_ELEMENTS = 1

/** An HTML document whose <body> holds exactly `elements` elements (at least 34). */
export const generatedPage = (elements: number): string => {
  const fixed = HEADER_ELEMENTS + MAIN_ELEMENTS + FOOTER_ELEMENTS
  const cards = Math.max(1, Math.floor((elements - fixed) / ELEMENTS_PER_CARD))
  const filler = Math.max(0, elements - fixed - cards * ELEMENTS_PER_CARD)
  const parts: Array<string> = [HEADER, MAIN_OPEN]
  for (let index = 1; index <= cards; index++) parts.push(card(index))
  parts.push(`</main><footer>${"<span>·</span>".repeat(filler)}</footer>`)
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Orders (${elements} elements)</title>
<style>body { font-family: sans-serif; margin: 1rem; } .card { border: 1px solid #ccc; margin: .5rem 0; padding: .5rem; }</style>
</head><body>${parts.join("\n")}</body></html>`
}
