// node sdk-client.mjs http://127.0.0.1:3000/   (the sample app: npm run sample-app; the command: npm link)
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"

const appUrl = process.argv[2] ?? "http://127.0.0.1:3000/"
const transport = new StdioClientTransport({
  command: "browser-workflow-mcp", // or command: "node", args: ["/path/to/dist/bin/browser-workflow-mcp.js", ...]
  args: ["--app-url", appUrl, "--loopback-only"], // --loopback-only: the app is on 127.0.0.1, nothing else loads
  stderr: "inherit" // the server's logs; stdout is the protocol
})
const client = new Client({ name: "my-script", version: "1.0.0" })
await client.connect(transport)

// Every answer is a JSON envelope in the first text block; the page as text, when sent, in the second.
const call = async (name, args = {}) => {
  const { content } = await client.callTool({ name, arguments: args })
  const envelope = JSON.parse(content[0].text)
  if (!envelope.ok) throw new Error(`${name}: ${envelope.error.code}: ${envelope.error.message}`)
  return { ...envelope, page: content[1]?.text }
}

try {
  const { tools } = await client.listTools() // before a launch: mm_launch, mm_cleanup, mm_knowledge, ...
  console.log("tools:", tools.map((tool) => tool.name).join(" "))
  const launched = await call("mm_launch") // opens --app-url in a new session
  console.log("session:", launched.result.sessionId)
  const screen = (await call("mm_describe_screen")).page // the page as text: role "name" [ref] lines
  console.log(screen)
  await call("mm_type", { selector: 'role=textbox[name="Username"]', text: "alice" }) // a role and name
  await call("mm_type", { testId: "password", text: "correct horse" }) // a data-testid
  const ref = /button "Sign in" \[(e\d+)\]/.exec(screen)[1] // a ref from the page text
  await call("mm_click", { a11yRef: ref })
  await call("mm_wait_for", { selector: "text=Welcome, alice" }) // Playwright's text selector
  console.log("read:", (await call("mm_get_text", { testId: "welcome" })).result.text)
} finally {
  await call("mm_cleanup").catch(() => undefined) // closes the browser; so does closing the client
  await client.close()
}
