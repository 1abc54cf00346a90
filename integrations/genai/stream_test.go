package tngenai_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"iter"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolnexus/toolnexus/integrations/genai"
	"github.com/toolnexus/toolnexus/internal/sdktest"
	"google.golang.org/genai"
)

const streamPath = "/v1beta/models/gemini-test:streamGenerateContent"

// sse is a Gemini stream body (alt=sse): each chunk a data line, on one
// line (a chunk written over several lines is compacted).
func sse(chunks ...string) string {
	var b strings.Builder
	for _, c := range chunks {
		var one bytes.Buffer
		if json.Compact(&one, []byte(c)) == nil {
			c = one.String()
		}
		b.WriteString("data: " + c + "\r\n\r\n")
	}
	return b.String()
}

// streamTurns are script's replies as Gemini streams them: parts spread
// over chunks, text in pieces, the finish reason with the last part.
var streamTurns = [][]string{
	{`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"call-1","name":"get_weather","args":{"city":"Oslo","unit":"K"}},"thoughtSignature":"c2lnLW9uZQ=="}]},"index":0}],"modelVersion":"gemini-test","responseId":"resp-1"}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"call-2","name":"local_time","args":{"city":"Oslo"}}}]},"finishReason":"STOP","index":0}],"modelVersion":"gemini-test","responseId":"resp-1"}`},
	{`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"get_weather","args":{"city":"Oslo","unit":"C"}},"thoughtSignature":"c2lnLXR3bw=="}]},"finishReason":"STOP","index":0}]}`},
	{`{"candidates":[{"content":{"role":"model","parts":[{"text":"12 °C and overcast "}]},"index":0}]}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"in Oslo, where it is 09:00."}]},"finishReason":"STOP","index":0}]}`},
}

// streamBodies are streamTurns' stream bodies. The usage metadata comes
// in a last chunk of its own, without candidates, when usageAlone is set,
// or else in the last chunk with candidates.
func streamBodies(usageAlone bool) []string {
	const usage = `"usageMetadata":{"promptTokenCount":10,"candidatesTokenCount":10,"totalTokenCount":20},"modelVersion":"gemini-test","responseId":"resp-1"}`
	bodies := make([]string, len(streamTurns))
	for i, turn := range streamTurns {
		chunks := append([]string(nil), turn...)
		if usageAlone {
			chunks = append(chunks, "{"+usage)
		} else {
			last := chunks[len(chunks)-1]
			chunks[len(chunks)-1] = last[:len(last)-1] + "," + usage
		}
		bodies[i] = sse(chunks...)
	}
	return bodies
}

// TestStreamCollect: the SDK's GenerateContentStream, unmodified, over a
// served stream; Collect joins each turn's chunks (the usage-only last
// chunk included) and Run answers it, and the requests are those of the
// unstreamed loop.
func TestStreamCollect(t *testing.T) {
	m := sdktest.NewModel(streamPath, streamBodies(true)...)
	defer m.Close()
	ctx := context.Background()
	client, err := newClient(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	tk := sdktest.Toolkit()
	tools, err := tngenai.Tools(tk)
	if err != nil {
		t.Fatal(err)
	}
	config := &genai.GenerateContentConfig{Tools: tools}
	history := []*genai.Content{genai.NewContentFromText("Weather and time in Oslo?", genai.RoleUser)}
	var text string
	for turn := 1; text == ""; turn++ {
		if turn > len(streamTurns) {
			t.Fatalf("the loop did not end after %d turns", len(streamTurns))
		}
		resp, err := tngenai.Collect(client.Models.GenerateContentStream(ctx, "gemini-test", history, config))
		if err != nil {
			t.Fatalf("turn %d: %v (model: %v)", turn, err, m.Err())
		}
		if resp.UsageMetadata == nil || resp.UsageMetadata.TotalTokenCount != 20 || resp.ResponseID != "resp-1" {
			t.Errorf("turn %d: usage %+v, response id %q; want the last chunk's usage and resp-1", turn, resp.UsageMetadata, resp.ResponseID)
		}
		next, done, err := tngenai.Run(ctx, tk, resp)
		if err != nil {
			t.Fatalf("turn %d: Run: %v", turn, err)
		}
		history = append(history, next...)
		if done {
			text = resp.Text()
		}
	}
	reqs := m.Finished(t, text, 3)
	data, err := os.ReadFile("testdata/requests.json")
	if err != nil {
		t.Fatal(err)
	}
	var unstreamed []json.RawMessage
	if err := json.Unmarshal(data, &unstreamed); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(jsonValues(t, unstreamed), jsonValues(t, reqs)); diff != "" {
		t.Errorf("streamed requests (-unstreamed +streamed):\n%s", diff)
	}
}

// TestChatSendStream: with a genai.Chat, SendStream and Collect give
// RunParts what it needs and the loop ends with the answer, but the
// Chat's own history is not the unstreamed one: it records each chunk's
// content as a content of its own and, when the usage metadata comes in a
// last chunk without candidates (where RunParts of that chunk alone has
// nothing to answer), it takes the response for an invalid one and leaves
// the whole turn out: the second request lacks the first turn. The
// package documentation says so; if genai changes, this test tells.
func TestChatSendStream(t *testing.T) {
	for _, usageAlone := range []bool{false, true} {
		m := sdktest.NewModel(streamPath, streamBodies(usageAlone)...)
		defer m.Close()
		ctx := context.Background()
		client, err := newClient(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		tk := sdktest.Toolkit()
		tools, err := tngenai.Tools(tk)
		if err != nil {
			t.Fatal(err)
		}
		chat, err := client.Chats.Create(ctx, "gemini-test", &genai.GenerateContentConfig{Tools: tools}, nil)
		if err != nil {
			t.Fatal(err)
		}
		parts := []*genai.Part{{Text: "Weather and time in Oslo?"}}
		var text string
		for turn := 1; text == ""; turn++ {
			if turn > len(streamTurns) {
				t.Fatalf("usage alone %v: the loop did not end after %d turns", usageAlone, len(streamTurns))
			}
			var last *genai.GenerateContentResponse
			stream := func(yield func(*genai.GenerateContentResponse, error) bool) {
				for chunk, err := range chat.SendStream(ctx, parts...) {
					last = chunk
					if !yield(chunk, err) {
						return
					}
				}
			}
			resp, err := tngenai.Collect(stream)
			if err != nil {
				t.Fatalf("usage alone %v, turn %d: %v (model: %v)", usageAlone, turn, err, m.Err())
			}
			if _, err := tngenai.RunParts(ctx, tk, last); usageAlone && (!errors.Is(err, tngenai.ErrReply) || !strings.Contains(err.Error(), "no candidates")) {
				t.Errorf("turn %d: RunParts(the usage-only last chunk) error = %v, want ErrReply: no candidates", turn, err)
			}
			if parts, err = tngenai.RunParts(ctx, tk, resp); err != nil {
				t.Fatalf("usage alone %v, turn %d: RunParts: %v", usageAlone, turn, err)
			}
			if parts == nil {
				text = resp.Text()
			}
		}
		m.Finished(t, text, 3)
		var second struct {
			Contents []json.RawMessage `json:"contents"`
		}
		if err := json.Unmarshal(m.Requests()[1], &second); err != nil {
			t.Fatal(err)
		}
		// Unstreamed: the question, the model's content, the responses.
		// Streamed, the Chat records each chunk's content apart (the first
		// turn's two calls come in two chunks), or drops the turn.
		wantContents := 4
		if usageAlone {
			wantContents = 1
		}
		if len(second.Contents) != wantContents {
			t.Errorf("usage alone %v: the Chat's second request has %d contents, was %d: genai changed, update the package documentation and docs/integrations.md", usageAlone, len(second.Contents), wantContents)
		}
	}
}

// chunks decodes each JSON text as a response chunk.
func chunks(t *testing.T, raw ...string) []*genai.GenerateContentResponse {
	t.Helper()
	out := make([]*genai.GenerateContentResponse, len(raw))
	for i, r := range raw {
		out[i] = new(genai.GenerateContentResponse)
		if err := json.Unmarshal([]byte(r), out[i]); err != nil {
			t.Fatalf("chunk %d: %v", i, err)
		}
	}
	return out
}

// TestMerge: chunks built in code, as the SDK decodes them. Thought text
// and answer text are joined apart, a signature sent on an empty text part
// closes the text part before it, function calls stay whole with their
// signatures, the finish reason and usage are the last, candidates are
// kept apart by index, and the chunks are not modified.
func TestMerge(t *testing.T) {
	raw := []string{
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"Think ","thought":true}]}}],"responseId":"r"}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"more.","thought":true},{"text":"The weather"}]}},{"index":1,"content":{"role":"model","parts":[{"text":"Other "}]}}]}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"text":" in Oslo:"}]}},{"index":1,"content":{"parts":[{"text":"answer."}]},"finishReason":"STOP"}]}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"","thoughtSignature":"c2lnLWE="}]}}]}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"text":" asking."},{"functionCall":{"id":"c1","name":"get_weather","args":{"city":"Oslo"}},"thoughtSignature":"c2lnLWI="}]}}]}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"c2","name":"local_time","args":{"city":"Oslo"}}}]},"finishReason":"STOP"}]}`,
		`{"usageMetadata":{"promptTokenCount":3,"candidatesTokenCount":4,"totalTokenCount":7}}`,
	}
	in := chunks(t, raw...)
	resp, err := tngenai.Merge(in...)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"candidates":[` +
		`{"content":{"parts":[{"text":"Think more.","thought":true},{"text":"The weather in Oslo:","thoughtSignature":"c2lnLWE="},{"text":" asking."},` +
		`{"functionCall":{"id":"c1","args":{"city":"Oslo"},"name":"get_weather"},"thoughtSignature":"c2lnLWI="},` +
		`{"functionCall":{"id":"c2","args":{"city":"Oslo"},"name":"local_time"}}],"role":"model"},"finishReason":"STOP"},` +
		`{"content":{"parts":[{"text":"Other answer."}],"role":"model"},"finishReason":"STOP","index":1}],` +
		`"responseId":"r","usageMetadata":{"candidatesTokenCount":4,"promptTokenCount":3,"totalTokenCount":7}}`
	if diff := cmp.Diff(jsonValue(t, want), jsonValue(t, string(got))); diff != "" {
		t.Errorf("Merge (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(chunks(t, raw...), in); diff != "" {
		t.Errorf("Merge modified its chunks (-before +after):\n%s", diff)
	}

	// The merged response runs: both calls, in order, ids echoed.
	parts, err := tngenai.RunParts(context.Background(), sdktest.Toolkit(), resp)
	if err != nil || len(parts) != 2 || parts[0].FunctionResponse.ID != "c1" || parts[1].FunctionResponse.ID != "c2" {
		t.Fatalf("RunParts = %v, %v; want the responses to c1 and c2", parts, err)
	}
}

func jsonValue(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestMergeRefuses: arguments streamed in pieces, and a stream of no
// chunks, are ErrReply; Collect returns the stream's own error.
func TestMergeRefuses(t *testing.T) {
	partial := chunks(t,
		`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"get_weather","partialArgs":[{"jsonPath":"$.city","stringValue":"Os","willContinue":true}],"willContinue":true}}]}}]}`)
	if _, err := tngenai.Merge(partial...); !errors.Is(err, tngenai.ErrReply) || !strings.Contains(err.Error(), "chunks[0].candidates[0].content.parts[0].functionCall (get_weather)") {
		t.Errorf("Merge(partialArgs) error = %v, want ErrReply naming the part", err)
	}
	if _, err := tngenai.Merge(); !errors.Is(err, tngenai.ErrReply) {
		t.Errorf("Merge() error = %v, want ErrReply", err)
	}
	if _, err := tngenai.Merge(nil, nil); !errors.Is(err, tngenai.ErrReply) {
		t.Errorf("Merge(nil, nil) error = %v, want ErrReply", err)
	}
	broken := errors.New("connection reset")
	var stream iter.Seq2[*genai.GenerateContentResponse, error] = func(yield func(*genai.GenerateContentResponse, error) bool) {
		if yield(partial[0], nil) {
			yield(nil, broken)
		}
	}
	if resp, err := tngenai.Collect(stream); !errors.Is(err, broken) || resp != nil {
		t.Errorf("Collect(a broken stream) = %v, %v; want nil, the stream's error", resp, err)
	}
}
