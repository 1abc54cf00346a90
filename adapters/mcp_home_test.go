package adapters_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

var _ = home("mcp", testHome{
	// A reply in its real shape (the fields a real reply has around the calls).
	benchReply: func(n int, args string) string {
		return repeatN(`[`, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"get_weather","arguments":`+args+`}}`, `]`, n)
	},
	calls: []adapters.Call{
		{ID: `7`, Name: "get_weather", Args: fxWeather},
		{ID: `"req-8"`, Name: "get_time", Args: fxTime},
		{ID: `9`, Name: "list_cities", Args: fxNone},
	},
	results: func(c []adapters.Call, r []define.Result) (any, error) { return adapters.MCPResults(c, r) },
	replay: func(t *testing.T, data []byte, add func(id, name string, args json.RawMessage, sig string)) {
		var reqs []struct {
			ID     json.RawMessage
			Method string
			Params json.RawMessage
		}
		mustUnmarshal(t, data, &reqs)
		for _, r := range reqs {
			params := r.Params
			if r.Method == "" {
				params = nil
			}
			var p struct {
				Name      string
				Arguments json.RawMessage
			}
			if params == nil {
				mustUnmarshal(t, data[bytes.IndexByte(data, '{'):len(data)-1], &p)
			} else {
				mustUnmarshal(t, params, &p)
			}
			add(string(r.ID), p.Name, p.Arguments, "")
		}
	},
	schemas: func(t *testing.T, dir string, entry map[string]any) []ruledSchema {
		out := []ruledSchema{{dir, entry["inputSchema"]}}
		if o, ok := entry["outputSchema"]; ok {
			out = append(out, ruledSchema{dir, o})
		}
		return out
	},
	missing: `"method"`,
	like:    "an array of JSON-RPC messages",
})
