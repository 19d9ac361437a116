// Package mcp launches local stdio MCP servers and gives their tools, resources
// and prompts to the tools engine.
//
// A Manager reads mcp.json (the mcpServers shape of Claude Desktop) from the data
// directory, watches it, and runs one supervisor per approved, enabled server: the
// server runs in its own process group with a minimal environment, is initialized
// with a timeout, and its tools are registered in a tools.Registry under
// namespaced names ("<server>__<tool>"). A crash restarts the server with
// exponential backoff until a breaker gives up; shutdown closes stdin, then sends
// SIGTERM, then SIGKILL to the group.
//
// Everything a server says is untrusted: annotations are hints that can only make
// a tool ask for approval, descriptions and results lose invisible Unicode and are
// size-capped, one stdout message is capped, and a tool whose definition changed
// since the user approved the server is switched off until the user accepts it.
package mcp
