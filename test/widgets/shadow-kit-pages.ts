// Hand-written pages with the patterns of the web-component kits in bench/widgets (third-wc.ts), no
// library code: components whose controls live in shadow roots (shadow-kits.test.ts drives them).
import { html } from "../support/browser.js"

export const shadowKitPages = {
  // A picker as Spectrum's: its button in the shadow root says aria-haspopup="true" (not "listbox"); a click
  // opens a listbox beside it in the same shadow root (aria-controls set while open), a click on an option
  // chooses it, closes the popup and shows the option's name on the button.
  "/picker": html(
    "Picker",
    `<h1>Preferences</h1>
    <x-picker id="size" label="Size"></x-picker>
    <script>
      customElements.define("x-picker", class extends HTMLElement {
        connectedCallback() {
          const shadow = this.attachShadow({ mode: "open" })
          shadow.innerHTML = '<button id="button" aria-haspopup="true" aria-expanded="false" aria-label="Size"><span id="shown">Choose a size</span></button>' +
            '<div id="menu" role="listbox" hidden>' + ["Small", "Medium", "Large"].map((s) => '<div role="option" aria-selected="false" data-value="' + s.toLowerCase() + '">' + s + '</div>').join("") + '</div>'
          const button = shadow.getElementById("button"), menu = shadow.getElementById("menu")
          const show = (open) => { menu.hidden = !open; button.setAttribute("aria-expanded", String(open)); open ? button.setAttribute("aria-controls", "menu") : button.removeAttribute("aria-controls") }
          button.addEventListener("click", () => show(menu.hidden))
          menu.addEventListener("click", (event) => {
            const option = event.target.closest("[role=option]")
            if (!option) return
            this.value = option.dataset.value
            menu.querySelectorAll("[role=option]").forEach((o) => o.setAttribute("aria-selected", String(o === option)))
            shadow.getElementById("shown").textContent = option.textContent
            show(false)
          })
        }
      })
      window.widgetState = () => ({ size: document.getElementById("size").value ?? null })
    </script>`
  ),
  // A multi-select combobox as UI5's: its field in the shadow root does not open the popup on a click, and
  // ArrowDown alone puts the first option's name in the field without opening it; Alt+ArrowDown (and F4)
  // open it, as the ARIA combobox pattern says. A click on an option toggles it; the popup stays open.
  "/multi-combo": html(
    "Multi combobox",
    `<h1>Order</h1>
    <label for="flavours">Flavours</label> <x-multi id="flavours"></x-multi>
    <script>
      const FLAVOURS = ["Chocolate", "Strawberry", "Vanilla", "Mint", "Pistachio"]
      const chosen = new Set()
      customElements.define("x-multi", class extends HTMLElement {
        connectedCallback() {
          const shadow = this.attachShadow({ mode: "open" })
          shadow.innerHTML = '<input role="combobox" aria-expanded="false" aria-autocomplete="both" aria-label="Flavours">' +
            '<div role="listbox" aria-multiselectable="true" hidden>' + FLAVOURS.map((f) => '<div role="option" aria-selected="false">' + f + '</div>').join("") + '</div>'
          const input = shadow.querySelector("input"), list = shadow.querySelector("[role=listbox]")
          const show = () => { list.hidden = false; input.setAttribute("aria-expanded", "true") }
          input.addEventListener("keydown", (event) => {
            if ((event.key === "ArrowDown" && event.altKey) || event.key === "F4") show()
            else if (event.key === "ArrowDown") input.value = FLAVOURS[0]
          })
          list.addEventListener("click", (event) => {
            const option = event.target.closest("[role=option]")
            if (!option) return
            const name = option.textContent
            chosen.has(name) ? chosen.delete(name) : chosen.add(name)
            option.setAttribute("aria-selected", String(chosen.has(name)))
          })
        }
      })
      window.widgetState = () => ({ flavours: [...chosen].sort(), field: document.getElementById("flavours").shadowRoot.querySelector("input").value })
    </script>`
  )
}
