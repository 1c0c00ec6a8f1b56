// A small web app of ours, served on 127.0.0.1: a login form, a dashboard with a list, a dialog.
import { servePages } from "./serve.js"

export { servePages, type RunningServer } from "./serve.js"

const layout = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>
  body { font-family: sans-serif; margin: 2rem; }
  .hidden { display: none; }
  dialog { border: 1px solid #888; }
  li { margin: .2rem 0; }
</style></head><body>${body}</body></html>`

/** The sign-in page; after signing in (which takes `delayMs`, like a server round trip), the dashboard lists `items` entries. */
export const loginPageWith = (items: number, delayMs = 150) => layout(
  "Sample app: sign in",
  `<h1>Sign in</h1>
<form id="login" data-testid="login-form">
  <label for="username">Username</label>
  <input id="username" name="username" data-testid="username" autocomplete="username">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" data-testid="password" autocomplete="current-password">
  <button type="submit" data-testid="login-submit">Sign in</button>
  <p role="alert" data-testid="login-error" class="hidden">Wrong username or password</p>
</form>
<section id="dashboard" class="hidden" aria-label="Dashboard">
  <h2 data-testid="welcome">Welcome</h2>
  <button data-testid="open-settings">Settings</button>
  <ul data-testid="items"></ul>
</section>
<dialog id="settings" aria-label="Settings">
  <h2>Settings</h2>
  <label><input type="checkbox" data-testid="dark-mode"> Dark mode</label>
  <button data-testid="close-settings">Close</button>
</dialog>
<script>
  const form = document.getElementById("login")
  form.addEventListener("submit", (event) => {
    event.preventDefault()
    const user = document.getElementById("username").value
    const pass = document.getElementById("password").value
    setTimeout(() => {
      if (user === "" || pass !== "correct horse") {
        document.querySelector("[data-testid=login-error]").classList.remove("hidden")
        return
      }
      form.classList.add("hidden")
      const dash = document.getElementById("dashboard")
      dash.classList.remove("hidden")
      document.querySelector("[data-testid=welcome]").textContent = "Welcome, " + user
      const list = document.querySelector("[data-testid=items]")
      for (let i = 1; i <= ${items}; i++) {
        const li = document.createElement("li")
        li.innerHTML = "Item " + i + " <button data-testid=item-" + i + ">Open</button>"
        list.appendChild(li)
      }
    }, ${delayMs})
  })
  document.querySelector("[data-testid=open-settings]").addEventListener("click", () => document.getElementById("settings").showModal())
  document.querySelector("[data-testid=close-settings]").addEventListener("click", () => document.getElementById("settings").close())
</script>`
)

export const loginPage = loginPageWith(20)

/** The sample app: `/` is the sign-in page. */
export const startSampleApp = () => servePages({ "/": loginPage })
