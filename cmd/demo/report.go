package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// report prints one provider's run and counts what happened in it. In
// story mode it prints each call and result on one line, and the error
// results as the provider's JSON, the way the model receives them; in full
// mode it also prints every request, reply and results message.
type report struct {
	w    io.Writer // io.Discard when only the counts are wanted
	full bool

	turns     int
	errors    int
	failed    map[string]bool // tools whose call failed and was not yet corrected
	corrected int             // failed tools whose later call succeeded
	sentError string          // the first results message holding an error, as one line of JSON
}

func newReport(w io.Writer, full bool) *report {
	return &report{w: w, full: full, failed: map[string]bool{}}
}

func (r *report) request(turn int, body any) {
	if r.full {
		fmt.Fprintf(r.w, "\n── turn %d: request ──\n", turn)
		printJSON(r.w, body)
	}
}

func (r *report) reply(turn int, reply []byte) {
	if r.full {
		fmt.Fprintf(r.w, "\n── turn %d: reply ──\n", turn)
		printJSON(r.w, json.RawMessage(reply))
	}
}

func (r *report) calls(turn int, calls []adapters.Call) {
	r.turns++
	if r.full {
		fmt.Fprintln(r.w)
	}
	for i, c := range calls {
		head := "       "
		if i == 0 {
			head = fmt.Sprintf("turn %d ", turn)
		}
		fmt.Fprintf(r.w, "%s model → %s %s\n", head, c.Name, c.Args)
	}
}

func (r *report) results(turn int, calls []adapters.Call, results []define.Result, next []any) {
	anyError := false
	for i, res := range results {
		name := calls[i].Name
		out := res.Output
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
		r.sentError = oneLineJSON(next)
	}
	switch {
	case r.full:
		fmt.Fprintf(r.w, "\n── turn %d: results of %s ──\n", turn, plural(len(calls), "call"))
		printJSON(r.w, next)
	case anyError:
		fmt.Fprintf(r.w, "        the model receives: %s\n", oneLineJSON(next))
	}
}

// summary is the one-line account of a provider's run.
func (r *report) summary(answer string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, %s", plural(r.turns, "tool turn"), plural(r.errors, "error result"))
	if r.corrected > 0 {
		b.WriteString(", corrected")
	}
	if answer == "" {
		b.WriteString("; the client ended the session")
	} else {
		b.WriteString("; final answer given")
	}
	return b.String()
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// compactJSON makes printJSON print one line per value.
var compactJSON bool

func printJSON(w io.Writer, v any) {
	b, err := encodeJSON(v, !compactJSON)
	if err != nil {
		fmt.Fprintf(w, "(cannot print: %v)\n", err)
		return
	}
	w.Write(b)
}

func oneLineJSON(v any) string {
	b, err := encodeJSON(v, false)
	if err != nil {
		return fmt.Sprintf("(cannot print: %v)", err)
	}
	return string(bytes.TrimSpace(b))
}

func encodeJSON(v any, indent bool) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", "  ")
	}
	err := enc.Encode(v)
	return b.Bytes(), err
}
