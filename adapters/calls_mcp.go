package adapters

import (
	"bytes"
	"encoding/json"

	"github.com/toolnexus/toolnexus/define"
)

// MCPCallToolResult is the result of an MCP tools/call request.
type MCPCallToolResult struct {
	// Content is one text block holding the Output (for a typed output,
	// its JSON text, for clients that do not read structuredContent).
	Content []MCPContent `json:"content"`
	// StructuredContent is the typed output as a JSON object, present when
	// the tool returned a value that is a JSON object (a struct or a map),
	// as a tool with an outputSchema must.
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	// IsError reports a tool-level failure the model should see.
	IsError bool `json:"isError"`
}

// MCPContent is an MCP content block; this package writes text blocks.
type MCPContent struct {
	Type string `json:"type"` // "text"
	Text string `json:"text"`
}

// MCPResponse is the JSON-RPC response to a tools/call request.
type MCPResponse struct {
	JSONRPC string            `json:"jsonrpc"` // "2.0"
	ID      json.RawMessage   `json:"id"`      // the request's id, echoed
	Result  MCPCallToolResult `json:"result"`
}

type mcpRequestWire struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
}

type mcpParamsWire struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// ParseMCPCalls returns the calls in an MCP tools/call message; see
// [ParseMCPReply].
func ParseMCPCalls(msg []byte) ([]Call, error) {
	t, err := ParseMCPReply(msg)
	return t.Calls, err
}

// ParseMCPReply parses what an MCP client sends to call tools: a tools/call
// request's params ({"name":...,"arguments":{...}}), the whole JSON-RPC
// request, or a JSON-RPC batch (an array) of tools/call requests. Each
// becomes a [Call] whose ID is the request's id as JSON text ("" for bare
// params); absent arguments mean {}. A request for another method is an
// error wrapping [ErrReplyShape].
//
// MCP has no conversation to replay: Turn.Replay holds the requests as
// [json.RawMessage] values, for logging, and Turn.Text is empty.
func ParseMCPReply(msg []byte) (Turn, error) {
	p := replyParser{NameMCP}
	data, err := p.whole(msg)
	if err != nil {
		return Turn{}, err
	}
	var turn Turn
	switch data[0] {
	case '[':
		var batch []json.RawMessage
		if err := p.decode("", data, &batch); err != nil {
			return Turn{}, err
		}
		if len(batch) == 0 {
			return Turn{}, p.fail("", ErrReplyShape, "empty batch")
		}
		for i, raw := range batch {
			c, err := p.mcpRequest(rtIndex("", i), raw)
			if err != nil {
				return Turn{}, err
			}
			turn.Calls = append(turn.Calls, c)
			turn.Replay = append(turn.Replay, rtCompact(raw))
		}
	case '{':
		var probe map[string]json.RawMessage
		if err := p.decode("", data, &probe); err != nil {
			return Turn{}, err
		}
		var c Call
		if _, ok := probe["method"]; ok {
			c, err = p.mcpRequest("", data)
		} else {
			c, err = p.mcpParams("", data)
		}
		if err != nil {
			return Turn{}, err
		}
		turn.Calls = []Call{c}
		turn.Replay = []any{rtCompact(append(json.RawMessage(nil), data...))}
	default:
		return Turn{}, p.fail("", ErrReplyShape, "expected a tools/call request, its params or a batch, got %s", rtKindOf(data))
	}
	return turn, nil
}

func (p replyParser) mcpRequest(path string, raw json.RawMessage) (Call, error) {
	if err := p.object(path, raw); err != nil {
		return Call{}, err
	}
	var r mcpRequestWire
	if err := p.decode(path, raw, &r); err != nil {
		return Call{}, err
	}
	if r.Method != "tools/call" {
		return Call{}, p.fail(rtJoin(path, "method"), ErrReplyShape, "method %q is not tools/call", r.Method)
	}
	id := bytes.TrimSpace(r.ID)
	if k := rtKindOf(id); k != "a string" && k != "a number" {
		return Call{}, p.fail(rtJoin(path, "id"), ErrReplyShape, "expected a string or number id, got %s", k)
	}
	if r.Params == nil {
		return Call{}, p.fail(rtJoin(path, "params"), ErrReplyShape, "missing params")
	}
	c, err := p.mcpParams(rtJoin(path, "params"), r.Params)
	c.ID = string(id)
	return c, err
}

func (p replyParser) mcpParams(path string, raw json.RawMessage) (Call, error) {
	if err := p.object(path, raw); err != nil {
		return Call{}, err
	}
	var w mcpParamsWire
	if err := p.decode(path, raw, &w); err != nil {
		return Call{}, err
	}
	if w.Name == "" {
		return Call{}, p.fail(rtJoin(path, "name"), ErrReplyShape, "missing name")
	}
	args, err := p.argsObject(rtJoin(path, "arguments"), w.Arguments)
	if err != nil {
		return Call{}, err
	}
	return Call{Name: w.Name, Args: args}, nil
}

// MCPResults renders the results of calls as MCP CallToolResults, one per
// call in call order: content is one text block with the Output, isError
// is set for error results, and structuredContent is the typed output
// ([define.Result.Value]) when it is a JSON object.
//
// Results and calls must be one to one ([ErrResultCount]).
func MCPResults(calls []Call, results []define.Result) ([]MCPCallToolResult, error) {
	if err := checkResultPairs("MCPResults", calls, results, false); err != nil {
		return nil, err
	}
	out := make([]MCPCallToolResult, len(calls))
	for i := range calls {
		out[i] = MCPResult(results[i])
	}
	return out, nil
}

// MCPResponses renders the results of calls as JSON-RPC responses to the
// tools/call requests they came in, each echoing its call's id; the
// result is as for [MCPResults]. Every call needs an id ([ErrCallID]):
// calls parsed from bare params have none. An id that is not JSON text (set
// by hand) is sent as a JSON string.
func MCPResponses(calls []Call, results []define.Result) ([]MCPResponse, error) {
	if err := checkResultPairs("MCPResponses", calls, results, true); err != nil {
		return nil, err
	}
	out := make([]MCPResponse, len(calls))
	for i, c := range calls {
		out[i] = MCPResponse{JSONRPC: "2.0", ID: mcpID(c.ID), Result: MCPResult(results[i])}
	}
	return out, nil
}

// mcpID returns a call's id as a JSON-RPC id: the JSON text ParseMCPReply
// stored, or, for an id set by hand that is not JSON, that text as a string.
func mcpID(id string) json.RawMessage {
	if json.Valid([]byte(id)) {
		return json.RawMessage(id)
	}
	q, _ := json.Marshal(id)
	return q
}

// MCPResult renders one result as a CallToolResult; see [MCPResults].
func MCPResult(r define.Result) MCPCallToolResult {
	if r.IsError {
		return MCPCallToolResult{Content: []MCPContent{{Type: "text", Text: resultErrorText(r)}}, IsError: true}
	}
	res := MCPCallToolResult{Content: []MCPContent{{Type: "text", Text: r.Output}}}
	if r.Value != nil {
		if v, err := json.Marshal(r.Value); err == nil && len(v) > 0 && v[0] == '{' {
			res.StructuredContent = v
		}
	}
	return res
}
