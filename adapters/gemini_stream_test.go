package adapters_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolnexus/toolnexus/adapters"
)

func FuzzGeminiStream(f *testing.F) { fuzzStream(f, adapters.ForGemini()) }

// geminiSSE frames chunks as alt=sse events.
func geminiSSE(chunks ...string) []byte {
	var b bytes.Buffer
	for _, c := range chunks {
		b.WriteString("data: " + c + "\r\n\r\n")
	}
	return b.Bytes()
}

// geminiPieces is a streamed Vertex call: its first piece, then one
// partialArgs piece per path and value, then the end piece.
func geminiPieces(name string, pieces ...[2]string) []string {
	out := []string{`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"` + name + `","willContinue":true}}]}}]}`}
	for _, p := range pieces {
		out = append(out, `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"partialArgs":[{"jsonPath":`+p[0]+`,`+p[1]+`}],"willContinue":true}}]}}]}`)
	}
	return append(out, `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{}}]},"finishReason":"STOP"}]}`)
}

// TestGeminiStreamCallBeforeEnd: a call is handed to the Call hook as soon
// as the chunk that completes it is written, before the stream's last
// chunk (the one with finishReason) arrives; a streamed Vertex call as
// soon as its end piece is.
func TestGeminiStreamCallBeforeEnd(t *testing.T) {
	for _, tc := range []struct {
		name   string
		chunks []string
		at     int // the chunk after which the first call is out
	}{
		{"whole call", []string{
			`{"candidates":[{"content":{"role":"model","parts":[{"text":"Checking."}]}}]}`,
			`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"get_weather","args":{"city":"Oslo"}}}]}}]}`,
			`{"candidates":[{"content":{"role":"model","parts":[{"text":""}]},"finishReason":"STOP"}]}`,
		}, 1},
		{"streamed call", []string{
			`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"get_weather","willContinue":true}}]}}]}`,
			`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.city","stringValue":"Os","willContinue":true}],"willContinue":true}}]}}]}`,
			`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.city","stringValue":"lo"}],"willContinue":true}}]}}]}`,
			`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{}}]}}]}`,
			`{"candidates":[{"content":{"role":"model","parts":[{"text":""}]},"finishReason":"STOP"}]}`,
		}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []adapters.Call
			s, err := adapters.NewStream(adapters.ForGemini(), adapters.StreamHooks{Call: func(c adapters.Call) { got = append(got, c) }})
			if err != nil {
				t.Fatal(err)
			}
			for i, c := range tc.chunks {
				if _, err := s.Write(geminiSSE(c)); err != nil {
					t.Fatal(err)
				}
				switch want := 0; {
				case i >= tc.at:
					want = 1
					fallthrough
				default:
					if len(got) != want {
						t.Fatalf("after chunk %d: the hook has %d calls, want %d", i, len(got), want)
					}
				}
			}
			turn, err := s.Close()
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0].Name != "get_weather" || string(got[0].Args) != `{"city":"Oslo"}` {
				t.Fatalf("hook got %+v", got)
			}
			if d := cmp.Diff(turn.Calls, got); d != "" {
				t.Fatalf("turn calls differ from the hook's (-turn +hook):\n%s", d)
			}
		})
	}
}

// TestGeminiStreamPaths applies partialArgs paths and values to one
// streamed call.
func TestGeminiStreamPaths(t *testing.T) {
	for _, tc := range []struct {
		name   string
		pieces [][2]string
		want   string // the args, or the error's text after "jsonPath"
	}{
		{"keys in first order", [][2]string{{`"$.b"`, `"numberValue":1`}, {`"$.a"`, `"numberValue":2`}, {`"$.b"`, `"numberValue":3`}}, `{"b":3,"a":2}`},
		{"string pieces appended", [][2]string{{`"$.s"`, `"stringValue":"a\"b","willContinue":true`}, {`"$.s"`, `"stringValue":"\u00e9\n"`}}, `{"s":"a\"b\u00e9\n"}`},
		{"big number kept", [][2]string{{`"$.n"`, `"numberValue":123456789012345678901234567890`}}, `{"n":123456789012345678901234567890}`},
		{"bool and null", [][2]string{{`"$.t"`, `"boolValue":true`}, {`"$.z"`, `"nullValue":null`}, {`"$.y"`, `"nullValue":"NULL_VALUE"`}}, `{"t":true,"z":null,"y":null}`},
		{"arrays of arrays", [][2]string{{`"$.m[0][0]"`, `"numberValue":1`}, {`"$.m[0][1]"`, `"numberValue":2`}, {`"$.m[1][0].k"`, `"stringValue":"v"`}}, `{"m":[[1,2],[{"k":"v"}]]}`},
		{"quoted keys", [][2]string{{`"$['a.b']['c[0]']"`, `"numberValue":1`}, {`"$[\"a.b\"].d"`, `"numberValue":2`}}, `{"a.b":{"c[0]":1,"d":2}}`},
		{"escapes in quoted keys", [][2]string{{`"$['\\'q\\'']"`, `"numberValue":1`}, {`"$['\\ud83d\\ude00']"`, `"numberValue":2`}, {`"$['tab\\t']"`, `"numberValue":3`}}, `{"'q'":1,"😀":2,"tab\t":3}`},
		{"same key two spellings", [][2]string{{`"$.k"`, `"stringValue":"a"`}, {`"$['k']"`, `"stringValue":"b"`}}, `{"k":"ab"}`},
		{"non-ASCII names", [][2]string{{`"$.größe"`, `"numberValue":1`}}, `{"größe":1}`},
		{"many keys", manyKeys(40), manyKeysWant(40)},

		{"not from the root", [][2]string{{`"a.b"`, `"numberValue":1`}}, `"a.b": expected a path starting with "$"`},
		{"wildcard", [][2]string{{`"$.*"`, `"numberValue":1`}}, `"$.*": at byte 2: only singular segments`},
		{"descendant", [][2]string{{`"$..a"`, `"numberValue":1`}}, `"$..a": at byte 2: only singular segments`},
		{"negative index", [][2]string{{`"$.a[-1]"`, `"numberValue":1`}}, `negative indexes are not supported`},
		{"leading zero", [][2]string{{`"$.a[01]"`, `"numberValue":1`}}, `an index with a leading zero`},
		{"unclosed bracket", [][2]string{{`"$.a[0"`, `"numberValue":1`}}, `expected "]"`},
		{"unclosed name", [][2]string{{`"$['a"`, `"numberValue":1`}}, `unclosed name`},
		{"bad escape", [][2]string{{`"$['a\\x']"`, `"numberValue":1`}}, `a bad escape`},
		{"lone surrogate", [][2]string{{`"$['\\ud83d']"`, `"numberValue":1`}}, `a bad \u escape`},
		{"space in a name", [][2]string{{`"$.a b"`, `"numberValue":1`}}, `expected "." or "["`},
		{"the root itself", [][2]string{{`"$"`, `"stringValue":"x"`}}, `"$": a value for the arguments object itself`},
		{"string then object", [][2]string{{`"$.a"`, `"stringValue":"x"`}, {`"$.a.b"`, `"numberValue":1`}}, `"$.a.b": $.a holds a string, not an object`},
		{"object then array", [][2]string{{`"$.a.b"`, `"numberValue":1`}, {`"$.a[0]"`, `"numberValue":1`}}, `"$.a[0]": $.a holds an object, not an array`},
		{"array then object", [][2]string{{`"$.a[0]"`, `"numberValue":1`}, {`"$.a.b"`, `"numberValue":1`}}, `"$.a.b": $.a holds an array, not an object`},
		{"object then string", [][2]string{{`"$.a.b"`, `"numberValue":1`}, {`"$.a"`, `"stringValue":"x"`}}, `"$.a": $.a holds an object: a string piece cannot be appended to it`},
		{"string then number", [][2]string{{`"$.a"`, `"stringValue":"x"`}, {`"$.a"`, `"numberValue":1`}}, `"$.a": $.a holds a string: a number cannot replace it`},
		{"skips ahead", [][2]string{{`"$.a[1]"`, `"numberValue":1`}}, `"$.a[1]": index 1 skips ahead: $.a holds 0 element(s) so far`},
		{"two values", [][2]string{{`"$.a"`, `"stringValue":"x","numberValue":1`}}, `more than one of stringValue`},
		{"number as a string", [][2]string{{`"$.a"`, `"numberValue":"1"`}}, `expected a number, got a string`},
		{"path not a string", [][2]string{{`7`, `"numberValue":1`}}, `/jsonPath: expected a string, got a number`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			turn, err := adapters.ParseGeminiStream(bytes.NewReader(geminiSSE(geminiPieces("f", tc.pieces...)...)))
			if strings.HasPrefix(tc.want, "{") {
				if err != nil {
					t.Fatal(err)
				}
				if len(turn.Calls) != 1 || string(turn.Calls[0].Args) != tc.want {
					t.Fatalf("calls %+v, want args %s", turn.Calls, tc.want)
				}
				return
			}
			if !errors.Is(err, adapters.ErrArguments) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want ErrArguments with %q", err, tc.want)
			}
			var re *adapters.ReplyError
			if !errors.As(err, &re) || re.Event < 2 {
				t.Fatalf("the error does not name the event of the piece: %#v", err)
			}
		})
	}
}

func manyKeys(n int) [][2]string {
	var out [][2]string
	for i := range n {
		out = append(out, [2]string{fmt.Sprintf(`"$.k%d"`, i), fmt.Sprintf(`"numberValue":%d`, i)})
	}
	return append(out, [2]string{`"$.k3"`, `"numberValue":-3`}, [2]string{`"$.k30"`, `"numberValue":-30`})
}

func manyKeysWant(n int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		v := i
		if i == 3 || i == 30 {
			v = -i
		}
		fmt.Fprintf(&b, `"k%d":%d`, i, v)
	}
	return b.String() + "}"
}

// TestGeminiStreamPathDepth: a path of more segments than the depth limit
// allows is refused when it arrives, not when the assembled reply is
// read.
func TestGeminiStreamPathDepth(t *testing.T) {
	deep := `"$` + strings.Repeat(".a", 600) + `"`
	_, err := adapters.ParseGeminiStream(bytes.NewReader(geminiSSE(geminiPieces("f", [2]string{deep, `"numberValue":1`})...)))
	if !errors.Is(err, adapters.ErrArguments) || !strings.Contains(err.Error(), "segments") {
		t.Fatalf("got %v", err)
	}
	// The deepest path allowed makes a reply the parser reads.
	for n := 400; n < 600; n++ {
		path := `"$` + strings.Repeat(".a", n) + `"`
		_, err := adapters.ParseGeminiStream(bytes.NewReader(geminiSSE(geminiPieces("f", [2]string{path, `"numberValue":1`})...)))
		if err != nil {
			if !strings.Contains(err.Error(), "more than") || !strings.Contains(err.Error(), "event 2") {
				t.Fatalf("%d segments: %v", n, err)
			}
			return
		}
	}
	t.Fatal("no path was too deep")
}

// TestGeminiStreamArrayMatchesReply: a stream sent as one JSON array (no
// alt=sse) gives the turn ParseGeminiReply gives for the same array, and
// the same chunks sent as SSE give it too.
func TestGeminiStreamArrayMatchesReply(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "golden", "calls", "gemini", "streams", "*.json"))
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".golden.json") {
			continue
		}
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(bytes.TrimSpace(body), []byte("[")) {
			continue
		}
		want, werr := adapters.ParseGeminiReply(body)
		got, gerr := adapters.ParseGeminiStream(bytes.NewReader(body))
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("%s: ParseGeminiReply: %v; ParseGeminiStream: %v", f, werr, gerr)
		}
		if werr != nil {
			continue // the stream's error may be another (a cut array is ErrIncomplete there)
		}
		n++
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("%s: (-reply +stream):\n%s", f, d)
		}
	}
	if n == 0 {
		t.Fatal("no array fixture parsed")
	}
}

// TestGeminiStreamFraming: the first byte that is not space (after a
// byte-order mark) chooses the framing.
func TestGeminiStreamFraming(t *testing.T) {
	chunk := `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"f","args":{"a":1}}}]},"finishReason":"STOP"}]}`
	for _, tc := range []struct {
		name, body string
		want       string // "" for the call, else a part of the error
	}{
		{"sse", "data: " + chunk + "\n\n", ""},
		{"sse after blank lines", "\r\n\n  \ndata: " + chunk + "\n\n", ""},
		{"sse after a mark", "\uFEFFdata: " + chunk + "\n\n", ""},
		{"array after space", " \n\t[" + chunk + "]", ""},
		{"array after a mark", "\uFEFF [" + chunk + "]\n", ""},
		{"values", chunk + "\n" + chunk, "call id"}, // two chunks: the call twice, without ids: fine
		{"a line starting with a space is not a field", "  data: " + chunk + "\n\n", "no events"},
		{"half a mark", "\xEF\xBBdata: " + chunk + "\n\n", "no events"},
		{"only space", " \r\n ", "no events"},
		{"array error names the byte", "  [" + chunk + " x", fmt.Sprintf("got 'x' at byte %d", 3+len(chunk)+1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			whole, err := adapters.ParseGeminiStream(strings.NewReader(tc.body))
			pieces, perr := feedGemini(tc.body)
			if fmt.Sprint(err) != fmt.Sprint(perr) || len(whole.Calls) != len(pieces.Calls) {
				t.Fatalf("whole: %v %v; one byte at a time: %v %v", whole.Calls, err, pieces.Calls, perr)
			}
			switch {
			case tc.name == "values":
				if err != nil || len(whole.Calls) != 2 {
					t.Fatalf("got %v %v", whole.Calls, err)
				}
			case tc.want == "":
				if err != nil || len(whole.Calls) != 1 || string(whole.Calls[0].Args) != `{"a":1}` {
					t.Fatalf("got %v %v", whole.Calls, err)
				}
			case err == nil || !strings.Contains(err.Error(), tc.want):
				t.Fatalf("got %v, want an error with %q", err, tc.want)
			}
		})
	}
}

func feedGemini(body string) (adapters.Turn, error) {
	s, err := adapters.NewStream(adapters.ForGemini(), adapters.StreamHooks{})
	if err != nil {
		return adapters.Turn{}, err
	}
	for i := range len(body) {
		if _, err := s.Write([]byte{body[i]}); err != nil {
			break
		}
	}
	return s.Close()
}

// TestGeminiStreamArgsLimit: the arguments partialArgs build count
// against the reply limit as they grow: a stream of short paths to deep
// new values (each piece makes about three times its bytes of
// arguments) fails at the piece that passes ReplyLimits.MaxBytes, not
// once its last event has come (issue 32 item 1: a 30 MiB body grew a
// 93 MB reply and a 2.5 GB heap before the limit refused it at the end).
func TestGeminiStreamArgsLimit(t *testing.T) {
	deep := strings.Repeat(".a", 480)
	var pieces [][2]string
	for i := range 200 {
		pieces = append(pieces, [2]string{`"$.k` + strconv.Itoa(i) + deep + `"`, `"numberValue":1`})
	}
	body := geminiSSE(geminiPieces("f", pieces...)...)
	const limit = 256 << 10
	if len(body) >= limit {
		t.Fatalf("the body (%d bytes) is over the limit itself", len(body))
	}
	p := adapters.WithReplyLimits(adapters.ForGemini(), adapters.ReplyLimits{MaxBytes: limit})
	_, err := p.ParseStream(bytes.NewReader(body))
	var re *adapters.ReplyError
	if !errors.As(err, &re) || !errors.Is(err, adapters.ErrReplyLimit) {
		t.Fatalf("err = %v, want ErrReplyLimit", err)
	}
	// Each piece adds about 2.9 KB of arguments: the 91st or so passes
	// 256 KiB, in its own event (the first piece is event 1).
	if re.Event < 80 || re.Event > 100 || !strings.Contains(err.Error(), "tool call 0") {
		t.Fatalf("the limit was passed in event %d: %v", re.Event, err)
	}
	// Without the limit, the arguments are whole and as long as counted.
	turn, err := adapters.ParseGeminiStream(bytes.NewReader(body))
	if err != nil || len(turn.Calls) != 1 {
		t.Fatalf("%v, %d calls", err, len(turn.Calls))
	}
	if n := len(turn.Calls[0].Args); n < 200*2850 || n > 200*2950 {
		t.Fatalf("arguments of %d bytes", n)
	}
}
