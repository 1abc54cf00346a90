package adapters_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// FuzzParseReply feeds every parser the same bytes; the FuzzParseX
// targets feed one parser, seeded with its own provider's replies. For
// each: none may panic; an error is a *ReplyError with a sentinel; a
// success gives calls whose Args are JSON objects, a replay that marshals
// and that encoding/json reads the same calls from, and results that
// render.
func FuzzParseReply(f *testing.F) { fuzzParsers(f, "") }

func FuzzParseOpenAI(f *testing.F)    { fuzzParsers(f, "openai") }
func FuzzParseResponses(f *testing.F) { fuzzParsers(f, "openai-responses") }
func FuzzParseAnthropic(f *testing.F) { fuzzParsers(f, "anthropic") }
func FuzzParseGemini(f *testing.F)    { fuzzParsers(f, "gemini") }
func FuzzParseBedrock(f *testing.F)   { fuzzParsers(f, "bedrock") }
func FuzzParseMCP(f *testing.F)       { fuzzParsers(f, "mcp") }

// fuzzParsers fuzzes the parser of provider, or every parser for "".
func fuzzParsers(f *testing.F, provider string) {
	dir := provider
	if dir == "" {
		dir = "*"
	}
	for _, r := range replyFixtures {
		if provider == "" || r.provider == provider {
			f.Add([]byte(r.reply))
		}
	}
	for _, s := range exampleReplies {
		if provider == "" || s.provider.Name() == provider {
			for _, r := range s.replies {
				f.Add([]byte(r))
			}
		}
	}
	seeds, _ := filepath.Glob(filepath.Join("..", "testdata", "golden", "calls", dir, "replies", "*.json"))
	for _, file := range seeds {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"tool_calls":[{"id":"a","function":{"name":"f","arguments":"{\"a\":{\"b\":[1,2,{}]}}"}}]}`))
	f.Add([]byte(`[{"type":"function_call","call_id":"c","name":"f","arguments":" "}]`))
	f.Fuzz(func(t *testing.T, reply []byte) {
		for name, parse := range parsers {
			if provider != "" && name != provider {
				continue
			}
			turn, err := parse(reply)
			if err != nil {
				var re *adapters.ReplyError
				if !errors.As(err, &re) {
					t.Fatalf("%s: error %T %v is not a *ReplyError", name, err, err)
				}
				if !errors.Is(err, adapters.ErrNotJSON) && !errors.Is(err, adapters.ErrReplyShape) && !errors.Is(err, adapters.ErrArguments) &&
					!errors.Is(err, adapters.ErrProviderError) && !errors.Is(err, adapters.ErrReplyLimit) {
					t.Fatalf("%s: error %v wraps no sentinel", name, err)
				}
				continue
			}
			for i, c := range turn.Calls {
				var obj map[string]json.RawMessage
				if c.Name == "" || json.Unmarshal(c.Args, &obj) != nil || obj == nil {
					t.Fatalf("%s: calls[%d] = %+v: want a name and a JSON object", name, i, c)
				}
			}
			if diff := cmp.Diff(turn.Calls, callsFromReplay(t, name, turn.Replay), jsonValues); diff != "" {
				t.Fatalf("%s: calls and replay disagree (-calls +replay):\n%s", name, diff)
			}
			rendered, err := resultRenderers[name](turn.Calls, make([]define.Result, len(turn.Calls)))
			if err != nil {
				t.Fatalf("%s: results for parsed calls: %v", name, err)
			}
			if _, err := json.Marshal(rendered); err != nil {
				t.Fatalf("%s: results do not marshal: %v", name, err)
			}
		}
	})
}
