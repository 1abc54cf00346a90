// Package bench measures toolnexus against the Go libraries users already
// know, in the same run and on the same input. It contains only
// comparisons: the library's own benchmarks live next to its code.
//
// It is a module of its own (replace github.com/toolnexus/toolnexus => ../),
// so the peers below never enter the library's go.mod:
//
//   - github.com/cloudwego/eino components/tool/utils.InferTool;
//   - github.com/mark3labs/mcp-go typed tool handlers (mcp.NewTypedToolHandler);
//   - github.com/modelcontextprotocol/go-sdk's typed tool path (mcp.AddTool),
//     which validates the raw arguments with github.com/google/jsonschema-go
//     and then unmarshals them into the input struct;
//   - github.com/firebase/genkit/go ai.NewTool and ToolDef.RunRaw.
//
// Each peer has a file of its own and is wrapped as a [Peer]: the library's
// normal per-call path from a provider's arguments to the typed handler, with
// the same handler body everywhere (it returns a constant). Peers that take
// only JSON text are given a map by marshaling it inside the timed call.
//
// The rejection table ([Rejections]) runs the argument cases of the core
// issue through every peer and records which bad inputs each one rejects and
// which it lets through to the function. `make bench-peers` runs the
// benchmarks and the table and rewrites the section of docs/benchmarks.md
// between the markers (see internal/readme).
package bench
