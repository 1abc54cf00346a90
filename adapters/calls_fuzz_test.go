package adapters_test

import (
	"bytes"
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
func FuzzParseOllama(f *testing.F)    { fuzzParsers(f, "ollama") }

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
	f.Add([]byte(`[{"candidates":[{"content":{"role":"model","parts":[{"text":"Let me "}]}}]},` +
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"check."},{"functionCall":{"name":"get_weather","args":{"city":"Paris"}},"thoughtSignature":"c2ln"}]},"finishReason":"STOP"}]},` +
		`{"usageMetadata":{"promptTokenCount":9}}]`))
	f.Add([]byte(`[{"role":"model","parts":[{"functionCall":{"id":"a","name":"f"}}]},{"parts":[{"text":"","thoughtSignature":"s"}]},{"error":{"code":503,"message":"m"}}]`))
	f.Add([]byte(`[{"candidates":[{"content":{"parts":[{"text":"x"}]}}]},{"candidates":[{"finishReason":"SAFETY","finishMessage":"no"}]}]`))
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
					!errors.Is(err, adapters.ErrProviderError) && !errors.Is(err, adapters.ErrReplyLimit) && !errors.Is(err, adapters.ErrIncomplete) {
					t.Fatalf("%s: error %v wraps no sentinel", name, err)
				}
				continue
			}
			for i, c := range turn.Calls {
				if c.Malformed != "" {
					// The text as sent, which the strict reader refuses.
					if c.Name == "" || strictObject(c.Args) {
						t.Fatalf("%s: calls[%d] = %+v: malformed, but a name-less call or a JSON object", name, i, c)
					}
					continue
				}
				var obj map[string]json.RawMessage
				if c.Name == "" || json.Unmarshal(c.Args, &obj) != nil || obj == nil {
					t.Fatalf("%s: calls[%d] = %+v: want a name and a JSON object", name, i, c)
				}
			}
			if diff := cmp.Diff(turn.Calls, callsFromReplay(t, name, turn.Replay), jsonValues, ignoreMarks); diff != "" {
				t.Fatalf("%s: calls and replay disagree (-calls +replay):\n%s", name, diff)
			}
			rendered, err := resultRenderers[name](turn.Calls, make([]define.Result, len(turn.Calls)))
			if err != nil {
				t.Fatalf("%s: results for parsed calls: %v", name, err)
			}
			if _, err := json.Marshal(rendered); err != nil {
				t.Fatalf("%s: results do not marshal: %v", name, err)
			}
			if name == "gemini" {
				checkGeminiOneChunk(t, reply, turn)
			}
		}
	})
}

// checkGeminiOneChunk checks that a Gemini response that parses gives the
// same turn as a stream of one chunk: the same calls, text and stop, and
// a replay with the same parts, byte for byte.
func checkGeminiOneChunk(t *testing.T, reply []byte, turn adapters.Turn) {
	if r := bytes.TrimSpace(reply); r[0] == '[' {
		return
	}
	stream, err := adapters.ParseGeminiReply(append(append([]byte("["), reply...), ']'))
	if errors.Is(err, adapters.ErrReplyLimit) {
		return // the array's level of nesting, or its two bytes, went past a limit
	}
	if err != nil {
		t.Fatalf("gemini: the response parses but a stream of it fails: %v", err)
	}
	if diff := cmp.Diff(turn, stream, cmp.FilterPath(func(p cmp.Path) bool { return p.String() == "Replay" }, cmp.Ignore())); diff != "" {
		t.Fatalf("gemini: the response and a stream of it differ (-response +stream):\n%s", diff)
	}
	var one, all struct{ Parts json.RawMessage }
	mustUnmarshal(t, turn.Replay[0].(json.RawMessage), &one)
	mustUnmarshal(t, stream.Replay[0].(json.RawMessage), &all)
	if !bytes.Equal(one.Parts, all.Parts) {
		t.Fatalf("gemini: replayed parts differ:\n%s\n%s", one.Parts, all.Parts)
	}
}
