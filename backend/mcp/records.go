package mcp

// markerVar is the environment variable that marks a server's descendants
// (orphan_linux.go).
const markerVar = "HERMES_MCP_RUN"

// recordDirName is the folder of the data dir with one record file per Hermes
// process that runs servers (proc.Recorder).
const recordDirName = "mcp-pids"
