package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
)

// recorder keeps what the model calls of one provider's run sent and
// received, by the run's step index: a ModelHook gives each request body,
// the scripted model each reply. The report prints them with -v.
type recorder struct {
	requests map[int][]byte
	replies  map[int][]byte
	last     int
}

func newRecorder() *recorder {
	return &recorder{requests: map[int][]byte{}, replies: map[int][]byte{}}
}

// hook is the Agent's ModelHook: it keeps a copy of each request body
// (the Agent's to reuse once the call is over).
func (rec *recorder) hook(ctx context.Context, c toolnexus.ModelCall) (context.Context, func(toolnexus.ModelEvent)) {
	rec.requests[c.Step] = bytes.Clone(c.Body)
	rec.last = c.Step
	return ctx, nil
}

// reply keeps the reply to the latest request.
func (rec *recorder) reply(_ int, reply []byte) { rec.replies[rec.last] = bytes.Clone(reply) }

// report prints one provider's run: in story mode, each step's calls and
// results on one line, the error results as the provider's JSON (the way
// the model receives them), the pause, the resume and the answer; with
// full, every request and reply too. It counts what happened, for the
// summary line.
type report struct {
	w    io.Writer // io.Discard when only the summary is wanted
	full bool
	p    adapters.Provider
	rec  *recorder

	calls     int             // model calls
	errors    int             // error results
	failed    map[string]bool // tools whose call failed and was not yet corrected
	corrected bool            // a failed tool's later call succeeded
	sentError string          // the first results holding an error, as one line of the provider's JSON
}

// steps prints steps; resumed says they are a resumed run's, whose first
// step is the paused one, completed.
func (r *report) steps(steps []toolnexus.Step, resumed bool) {
	for k, s := range steps {
		head := fmt.Sprintf("step %d ", s.Index+1)
		if !(resumed && k == 0) {
			r.calls++
			r.dump(s.Index)
			if len(s.Turn.Calls) == 0 {
				fmt.Fprintf(r.w, "%s model → %s\n", head, s.Turn.Text)
			}
			for i, c := range s.Turn.Calls {
				if i > 0 {
					head = "       "
				}
				fmt.Fprintf(r.w, "%s model → %s %s\n", head, c.Name, c.Args)
			}
			head = "       "
		}
		r.results(head, s)
	}
}

// dump prints the request and the reply of the model call of step i, with -v.
func (r *report) dump(i int) {
	if !r.full {
		return
	}
	fmt.Fprintf(r.w, "\n── step %d: request ──\n", i+1)
	printJSON(r.w, json.RawMessage(r.rec.requests[i]))
	fmt.Fprintf(r.w, "── step %d: reply ──\n", i+1)
	printJSON(r.w, json.RawMessage(r.rec.replies[i]))
}

func (r *report) results(head string, s toolnexus.Step) {
	anyError := false
	for i, res := range s.Results {
		name, out := s.Turn.Calls[i].Name, res.Output
		switch toolnexus.OutcomeOf(res) {
		case toolnexus.OutcomeOK:
			if r.failed[name] {
				delete(r.failed, name)
				r.corrected = true
			}
		case toolnexus.OutcomePending:
			out = "PENDING: waits for a person's approval"
		default:
			r.errors++
			r.failed[name] = true
			anyError = true
			out = "ERROR " + out
		}
		fmt.Fprintf(r.w, "%s tools → %s: %s\n", head, name, out)
		head = "       "
	}
	if !anyError || r.sentError != "" {
		return
	}
	// The results as the Agent sends them: the provider's results function.
	sent, err := r.p.Results(s.Turn.Calls, s.Results)
	if err != nil {
		r.sentError = fmt.Sprintf("(cannot render: %v)", err)
	} else {
		r.sentError = oneLineJSON(sent)
	}
	fmt.Fprintf(r.w, "        the model receives: %s\n", r.sentError)
}

// tokens says a usage's input and output counts.
func tokens(u adapters.Usage) string {
	if !u.Has(adapters.UsageInput | adapters.UsageOutput) {
		return "tokens unknown (a reply did not say)"
	}
	return fmt.Sprintf("%d input + %d output tokens", u.Input, u.Output)
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
