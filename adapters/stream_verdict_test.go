package adapters_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
)

// Streamed and whole replies of the same content give the same verdict:
// the same calls and text, or an error of the same class. The fuzz
// targets of stream_differential_test.go search for contents where they
// do not; the cases below are the ones found, kept as tests.

// sentinelOf names the class of err: its sentinel, "" for no error.
func sentinelOf(err error) string {
	if err == nil {
		return ""
	}
	for _, s := range streamSentinels {
		if errors.Is(err, s.err) {
			return s.name
		}
	}
	return "(no sentinel)"
}

// TestOpenAIStreamBlankArguments: an arguments text that is JSON space,
// or null, is no arguments ({}) whether the reply is whole or streamed;
// one that holds another space (a vertical tab, a no-break space) is not
// JSON, streamed or whole: a malformed call, its text as sent
// (docs/mistakes.md). Before, "\r", "\n" and "\t" were {} in a whole
// reply but "cut off" in a stream, and "\u000b" was {} in a whole reply
// (bytes.TrimSpace).
func TestOpenAIStreamBlankArguments(t *testing.T) {
	for _, tc := range []struct {
		text string // the arguments text
		want string // the args, or the error's sentinel
	}{
		{"\r", "{}"}, {"\n", "{}"}, {"\t", "{}"}, {" \r\n\t", "{}"}, {"", "{}"},
		{"null", "{}"}, {" null\n", "{}"}, {"\tnull\r", "{}"},
		{"\v", "malformed"}, {"\u00a0", "malformed"}, {"\u00a0{}", "malformed"},
		{"nul", "malformed"}, {"nulll", "malformed"}, {"null x", "malformed"}, {"{}null", "malformed"},
	} {
		quoted, _ := json.Marshal(tc.text)
		whole := `{"choices":[{"message":{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":` + string(quoted) + `}}]},"finish_reason":"tool_calls"}]}`
		// The stream sends the text one character a piece.
		var b strings.Builder
		b.WriteString(sse("", `{"choices":[{"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"f","arguments":""}}]}}]}`))
		for _, r := range tc.text {
			piece, _ := json.Marshal(string(r))
			b.WriteString(sse("", `{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":`+string(piece)+`}}]}}]}`))
		}
		b.WriteString("data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n")
		wt, werr := adapters.ParseOpenAIReply([]byte(whole))
		st, serr := adapters.ParseOpenAIStream(strings.NewReader(b.String()))
		for how, r := range map[string]struct {
			turn adapters.Turn
			err  error
		}{"whole": {wt, werr}, "streamed": {st, serr}} {
			if strings.HasPrefix(tc.want, "{") {
				if r.err != nil || len(r.turn.Calls) != 1 || string(r.turn.Calls[0].Args) != tc.want {
					t.Errorf("arguments %q %s: %+v, %v; want args %s", tc.text, how, r.turn.Calls, r.err, tc.want)
				}
				continue
			}
			if tc.want == "malformed" {
				if r.err != nil || len(r.turn.Calls) != 1 || r.turn.Calls[0].Malformed == "" || string(r.turn.Calls[0].Args) != tc.text {
					t.Errorf("arguments %q %s: %+v, %v; want a malformed call, its text as sent", tc.text, how, r.turn.Calls, r.err)
				}
				continue
			}
			if got := sentinelOf(r.err); got != tc.want {
				t.Errorf("arguments %q %s: err = %v (%s), want %s", tc.text, how, r.err, got, tc.want)
			}
		}
	}
}

// TestChatStreamArgumentsMember: a streamed call none of whose pieces has
// an arguments member is the whole reply's call without one: {} for a
// server that sends calls so (OpenAI's profile, NoArguments), an error
// for one that does not (Mistral); before, a stream made it {} for every
// server.
func TestChatStreamArgumentsMember(t *testing.T) {
	for _, tc := range []struct {
		p    adapters.Provider
		id   string
		want string
	}{
		{adapters.ForOpenAI(), "call_1", "{}"},
		{adapters.ForOpenAI(adapters.Server(adapters.Groq)), "call_1", "ErrArguments"},
		{adapters.ForMistral(), "abcdefghi", "ErrArguments"},
	} {
		whole := `{"choices":[{"message":{"role":"assistant","tool_calls":[{"id":"` + tc.id + `","type":"function","function":{"name":"f"}}]},"finish_reason":"tool_calls"}]}`
		stream := sse("", `{"choices":[{"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"`+tc.id+`","type":"function","function":{"name":"f"}}]}}]}`) +
			"data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n"
		wt, werr := tc.p.Parse([]byte(whole))
		st, serr := tc.p.ParseStream(strings.NewReader(stream))
		for how, r := range map[string]struct {
			turn adapters.Turn
			err  error
		}{"whole": {wt, werr}, "streamed": {st, serr}} {
			if tc.want == "{}" {
				if r.err != nil || len(r.turn.Calls) != 1 || string(r.turn.Calls[0].Args) != "{}" {
					t.Errorf("%s %s: %+v, %v; want args {}", tc.p.Name(), how, r.turn.Calls, r.err)
				}
				continue
			}
			if got := sentinelOf(r.err); got != tc.want {
				t.Errorf("%s %s: err = %v (%s), want %s", tc.p.Name(), how, r.err, got, tc.want)
			}
		}
	}
}

// TestChatStreamSameIDNewIndex: a piece with a new index and the id of an
// earlier call starts a second call with that id, which is an error as in
// the whole reply; before, it was read as a piece of the earlier call
// (its name and arguments appended), and the pieces that followed made a
// call without a name.
func TestChatStreamSameIDNewIndex(t *testing.T) {
	stream := sse("", `{"choices":[{"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]}}]}`) +
		sse("", `{"choices":[{"delta":{"tool_calls":[{"index":1,"id":"c1","type":"function","function":{"name":"g","arguments":""}}]}}]}`) +
		sse("", `{"choices":[{"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{}"}}]}}]}`) +
		"data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n"
	whole := `{"choices":[{"message":{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}},{"id":"c1","type":"function","function":{"name":"g","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`
	_, werr := adapters.ParseOpenAIReply([]byte(whole))
	_, serr := adapters.ParseOpenAIStream(strings.NewReader(stream))
	if werr == nil || serr == nil || !strings.Contains(serr.Error(), `call id "c1" is used by an earlier call`) || sentinelOf(werr) != sentinelOf(serr) {
		t.Fatalf("whole: %v\nstreamed: %v", werr, serr)
	}
}
