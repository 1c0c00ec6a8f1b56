// The demo's sample app on its own, for trying a client by hand: `npm run sample-app [-- PORT]` serves it
// on http://127.0.0.1:3000/ (or PORT) until Ctrl-C. Sign in as anyone with the password "correct horse".
import * as http from "node:http"
import { loginPage } from "./sample-app.js"
import { answerPage, send } from "./serve.js"

const port = Number(process.argv[2] ?? 3000)
const server = http.createServer((request, response) => {
  if (!answerPage({ "/": loginPage }, request, response)) send(response, 404, "text/plain", "not found")
})
server.on("error", (error) => {
  process.stderr.write(`sample app: ${error.message} (another port: npm run sample-app -- 3001)\n`)
  process.exit(1)
})
server.listen(port, "127.0.0.1", () => process.stdout.write(`sample app at http://127.0.0.1:${port}/ (Ctrl-C stops it)\n`))
