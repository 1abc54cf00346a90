package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// MCP has no model request, so no Agent: its "model" is an MCP client (a
// host with its model behind it) that sends tools/call requests; the
// server answers each with the toolkit's results in MCP's form, and the
// client, not the server, ends the session. The demo plays the client's
// requests against this server loop, with the same tools; the client
// calls two at once, sends the temperature as text once and corrects it.
var mcpRequests = []string{
	`[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Paris"}}},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_time","arguments":{"city":"Paris"}}}]`,
	`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"celsius_to_fahrenheit","arguments":{"celsius":"21 °C"}}}`,
	`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"celsius_to_fahrenheit","arguments":{"celsius":21}}}`,
}

// runMCP serves the scripted client's requests, printing them to w as
// the report asks; it returns the report.
func runMCP(ctx context.Context, w io.Writer, full bool) (*mcpReport, error) {
	p := adapters.ForMCP()
	tk, err := toolnexus.NewToolkitWith(tools, toolnexus.WithApproval("book_table"))
	if err != nil {
		return nil, err
	}
	listed, err := p.Tools(tk.Tools())
	if err != nil {
		return nil, err
	}
	r := &mcpReport{w: w, full: full, failed: map[string]bool{}}
	if full {
		fmt.Fprintln(w, "\n── tools/list result ──")
		printJSON(w, map[string]any{"tools": listed})
	}
	for i, req := range mcpRequests {
		turn := i + 1
		if full {
			fmt.Fprintf(w, "\n── request %d (from the client) ──\n", turn)
			printJSON(w, json.RawMessage(req))
		}
		t, err := p.Parse([]byte(req))
		if err != nil {
			return nil, err
		}
		r.calls(turn, t.Calls)
		results := tk.Run(ctx, t.Calls) // bad arguments come back as error results
		replies, err := p.Results(t.Calls, results)
		if err != nil {
			return nil, err
		}
		r.results(turn, t.Calls, results, replies)
	}
	return r, nil
}

// mcpReport prints the MCP server's session and counts what happened in
// it: each call and result on one line, the error results as MCP's JSON;
// with full, every request and reply.
type mcpReport struct {
	w    io.Writer
	full bool

	turns     int
	errors    int
	failed    map[string]bool // tools whose call failed and was not yet corrected
	corrected int             // failed tools whose later call succeeded
	sentError string          // the first reply holding an error, as one line of JSON
}

func (r *mcpReport) calls(turn int, calls []adapters.Call) {
	r.turns++
	for i, c := range calls {
		head := "       "
		if i == 0 {
			head = fmt.Sprintf("call %d ", turn)
		}
		fmt.Fprintf(r.w, "%s client → %s %s\n", head, c.Name, c.Args)
	}
}

func (r *mcpReport) results(turn int, calls []adapters.Call, results []define.Result, replies []any) {
	anyError := false
	for i, res := range results {
		name, out := calls[i].Name, res.Output
		if res.IsError {
			r.errors++
			anyError = true
			r.failed[name] = true
			out = "ERROR " + out
		} else if r.failed[name] {
			delete(r.failed, name)
			r.corrected++
		}
		fmt.Fprintf(r.w, "        tools → %s: %s\n", name, out)
	}
	if anyError && r.sentError == "" {
		r.sentError = oneLineJSON(replies)
	}
	switch {
	case r.full:
		fmt.Fprintf(r.w, "\n── reply %d (to the client) ──\n", turn)
		printJSON(r.w, replies)
	case anyError:
		fmt.Fprintf(r.w, "        the client receives: %s\n", r.sentError)
	}
}

// summary is the one-line account of the session.
func (r *mcpReport) summary() string {
	s := fmt.Sprintf("%s, %s", plural(r.turns, "tool turn"), plural(r.errors, "error result"))
	if r.corrected > 0 {
		s += ", corrected"
	}
	return s + "; the client ended the session"
}
