// Preloaded into the server by the reliability test (node --expose-gc --require): on SIGUSR2, a full
// collection, then the memory left, as one line on stderr. What stays after a collection is what the
// server holds; the resident size between collections follows the collector's timing and the load.
process.on("SIGUSR2", () => {
  global.gc()
  global.gc()
  const memory = process.memoryUsage()
  const mb = (bytes) => Math.round((bytes / 1048576) * 10) / 10
  process.stderr.write(`bwm-gc-probe ${JSON.stringify({ heap: mb(memory.heapUsed), external: mb(memory.external), rss: mb(memory.rss) })}\n`)
})
