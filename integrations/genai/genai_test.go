package tngenai_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/golden"
	"github.com/toolnexus/toolnexus/integrations/genai"
	"github.com/toolnexus/toolnexus/internal/sdktest"
	"google.golang.org/genai"
)

// wireRequest is the part of a generateContent request body the tests look
// into.
type wireRequest struct {
	Contents []struct {
		Role  string `json:"role"`
		Parts []struct {
			Text             string `json:"text"`
			ThoughtSignature string `json:"thoughtSignature"`
			FunctionCall     *struct {
				ID   string         `json:"id"`
				Name string         `json:"name"`
				Args map[string]any `json:"args"`
			} `json:"functionCall"`
			FunctionResponse *struct {
				ID       string         `json:"id"`
				Name     string         `json:"name"`
				Response map[string]any `json:"response"`
			} `json:"functionResponse"`
		} `json:"parts"`
	} `json:"contents"`
	Tools []struct {
		FunctionDeclarations []struct {
			Name       string `json:"name"`
			Parameters struct {
				PropertyOrdering []string `json:"propertyOrdering"`
			} `json:"parameters"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
}

func decodeRequests(t *testing.T, m *sdktest.Model) []wireRequest {
	t.Helper()
	var out []wireRequest
	for i, body := range m.Requests() {
		var r wireRequest
		if err := json.Unmarshal(body, &r); err != nil {
			t.Fatalf("request %d: %v", i+1, err)
		}
		out = append(out, r)
	}
	return out
}

// runLoop drives the scripted model with the genai client through Run and
// returns the final text and history.
func runLoop(t *testing.T, m *sdktest.Model) (string, []*genai.Content) {
	t.Helper()
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
	for turn := 1; turn <= len(script); turn++ {
		resp, err := client.Models.GenerateContent(ctx, "gemini-test", history, config)
		if err != nil {
			t.Fatalf("turn %d: GenerateContent: %v (model: %v)", turn, err, m.Err())
		}
		next, done, err := tngenai.Run(ctx, tk, resp)
		if err != nil {
			t.Fatalf("turn %d: Run: %v", turn, err)
		}
		history = append(history, next...)
		if done {
			return resp.Text(), history
		}
	}
	t.Fatalf("the loop did not end after %d turns", len(script))
	return "", nil
}

// TestTwoTurns: the official client, unmodified, talks to a server playing
// Gemini; the bad unit comes back as an error response, the corrected call
// succeeds, and every request body is the golden one.
func TestTwoTurns(t *testing.T) {
	m := sdktest.NewModel(modelPath, script...)
	defer m.Close()
	text, history := runLoop(t, m)
	m.Finished(t, text, 3)
	roles := make([]string, len(history))
	for i, c := range history {
		roles[i] = c.Role
	}
	if diff := cmp.Diff([]string{"user", "model", "user", "model", "user", "model"}, roles); diff != "" {
		t.Errorf("history roles (-want +got):\n%s", diff)
	}

	reqs := decodeRequests(t, m)
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	// Tools: parameters with Go field order.
	decls := reqs[0].Tools[0].FunctionDeclarations
	if diff := cmp.Diff([]string{"city", "unit"}, decls[0].Parameters.PropertyOrdering); diff != "" {
		t.Errorf("get_weather propertyOrdering (-want +got):\n%s", diff)
	}
	// Turn 1 replayed with its signature; the bad unit is an error response
	// naming the field; the parallel call's output echoes its id.
	r2 := reqs[1].Contents
	if got := r2[1].Parts[0].ThoughtSignature; got != "c2lnLW9uZQ==" {
		t.Errorf("replayed thoughtSignature = %q, want c2lnLW9uZQ==", got)
	}
	bad := r2[2].Parts[0].FunctionResponse
	if bad == nil || bad.ID != "call-1" || bad.Name != "get_weather" {
		t.Fatalf("request 2, first function response = %+v, want call-1 get_weather", bad)
	}
	if msg, _ := bad.Response["error"].(string); !strings.Contains(msg, "/unit") || !strings.Contains(msg, `"K"`) {
		t.Errorf("error response = %v, want a message naming /unit and \"K\"", bad.Response)
	}
	if diff := cmp.Diff(map[string]any{"output": "09:00 in Oslo"}, r2[2].Parts[1].FunctionResponse.Response); diff != "" {
		t.Errorf("local_time response (-want +got):\n%s", diff)
	}
	// Turn 2: the corrected call, without an id, answered by name.
	r3 := reqs[2].Contents
	if got := r3[3].Parts[0].ThoughtSignature; got != "c2lnLXR3bw==" {
		t.Errorf("replayed thoughtSignature = %q, want c2lnLXR3bw==", got)
	}
	good := r3[4].Parts[0].FunctionResponse
	want := map[string]any{"output": map[string]any{"city": "Oslo", "temperature": 12.0, "unit": "C", "sky": "overcast"}}
	if good == nil || good.ID != "" || good.Name != "get_weather" {
		t.Fatalf("request 3 function response = %+v, want get_weather without id", good)
	}
	if diff := cmp.Diff(want, good.Response); diff != "" {
		t.Errorf("corrected call's response (-want +got):\n%s", diff)
	}
	golden.JSON(t, "testdata/requests.json", m.Requests())
}

// TestChatSendsTheSameRequests: a genai.Chat driven with RunParts sends
// exactly the requests of the Run loop.
func TestChatSendsTheSameRequests(t *testing.T) {
	loop := sdktest.NewModel(modelPath, script...)
	defer loop.Close()
	runLoop(t, loop)

	m := sdktest.NewModel(modelPath, script...)
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
	resp, err := chat.SendMessage(ctx, genai.Part{Text: "Weather and time in Oslo?"})
	for turn := 1; err == nil; turn++ {
		parts, rerr := tngenai.RunParts(ctx, tk, resp)
		if rerr != nil {
			t.Fatalf("turn %d: RunParts: %v", turn, rerr)
		}
		if parts == nil {
			break
		}
		resp, err = chat.Send(ctx, parts...)
	}
	if err != nil {
		t.Fatalf("chat: %v (model: %v)", err, m.Err())
	}
	if diff := cmp.Diff(jsonValues(t, loop.Requests()), jsonValues(t, m.Requests())); diff != "" {
		t.Errorf("chat requests differ from the Run loop's (-want +got):\n%s", diff)
	}
}

func jsonValues(t *testing.T, bodies []json.RawMessage) []any {
	t.Helper()
	out := make([]any, len(bodies))
	for i, b := range bodies {
		if err := json.Unmarshal(b, &out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestToolsJSONSchema: with GeminiJSONSchema the rendered schema is handed
// to the SDK as the rendered bytes.
func TestToolsJSONSchema(t *testing.T) {
	tk := sdktest.Toolkit()
	tools, err := tngenai.Tools(tk, adapters.GeminiJSONSchema())
	if err != nil {
		t.Fatal(err)
	}
	rendered, err := tk.ToGemini(adapters.GeminiJSONSchema())
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range tools[0].FunctionDeclarations {
		want := rendered[0].FunctionDeclarations[i].ParametersJSONSchema
		got, ok := d.ParametersJsonSchema.(json.RawMessage)
		if !ok || string(got) != string(want) || d.Parameters != nil {
			t.Errorf("%s: ParametersJsonSchema = %s (%T), Parameters = %v; want the rendered %s only", d.Name, got, d.ParametersJsonSchema, d.Parameters, want)
		}
	}
}

// TestToolsParameters: the OpenAPI-subset parameters become a genai.Schema
// with everything the rendering holds.
func TestToolsParameters(t *testing.T) {
	tools, err := tngenai.Tools(sdktest.Toolkit())
	if err != nil {
		t.Fatal(err)
	}
	minLen := int64(1)
	want := &genai.Schema{
		Type: "object",
		Properties: map[string]*genai.Schema{
			"city": {Type: "string", Description: "City name, e.g. Paris", MinLength: &minLen},
			"unit": {Type: "string", Description: "Temperature unit", Enum: []string{"C", "F"}, Default: "C"},
		},
		PropertyOrdering: []string{"city", "unit"},
		Required:         []string{"city"},
	}
	if diff := cmp.Diff(want, tools[0].FunctionDeclarations[0].Parameters); diff != "" {
		t.Errorf("get_weather parameters (-want +got):\n%s", diff)
	}
}

func TestRunUnusableResponse(t *testing.T) {
	tk := sdktest.Toolkit()
	ctx := context.Background()
	for name, resp := range map[string]*genai.GenerateContentResponse{
		"nil":           nil,
		"no candidates": {},
		"blocked":       {PromptFeedback: &genai.GenerateContentResponsePromptFeedback{BlockReason: genai.BlockedReasonSafety}},
		"no content":    {Candidates: []*genai.Candidate{{FinishReason: genai.FinishReasonSafety}}},
		"nameless call": {Candidates: []*genai.Candidate{{Content: &genai.Content{Role: "model", Parts: []*genai.Part{{FunctionCall: &genai.FunctionCall{}}}}}}},
	} {
		if _, _, err := tngenai.Run(ctx, tk, resp); !errors.Is(err, tngenai.ErrReply) {
			t.Errorf("%s: Run error = %v, want ErrReply", name, err)
		}
		if _, err := tngenai.RunParts(ctx, tk, resp); !errors.Is(err, tngenai.ErrReply) {
			t.Errorf("%s: RunParts error = %v, want ErrReply", name, err)
		}
	}
}

// TestRunNoArgsAndRole: a call without args runs with {} (here: a missing
// required property), and a content without a role is replayed as the
// model's, without changing the response.
func TestRunNoArgsAndRole(t *testing.T) {
	tk := sdktest.Toolkit()
	resp := &genai.GenerateContentResponse{Candidates: []*genai.Candidate{{Content: &genai.Content{Parts: []*genai.Part{
		{FunctionCall: &genai.FunctionCall{ID: "x", Name: "local_time"}},
	}}}}}
	next, done, err := tngenai.Run(context.Background(), tk, resp)
	if err != nil || done || len(next) != 2 {
		t.Fatalf("Run = %d contents, done %v, err %v; want 2, false, nil", len(next), done, err)
	}
	if next[0].Role != genai.RoleModel || resp.Candidates[0].Content.Role != "" {
		t.Errorf("model content role %q (response's %q), want model, and the response left as is", next[0].Role, resp.Candidates[0].Content.Role)
	}
	fr := next[1].Parts[0].FunctionResponse
	if msg, _ := fr.Response["error"].(string); !strings.Contains(msg, "/city") {
		t.Errorf("no-args response = %v, want an error naming the missing /city", fr.Response)
	}
}

// TestJSONSchemaSent: with GeminiJSONSchema the SDK sends
// parametersJsonSchema as the rendered schema (a JSON value equal to it;
// the SDK re-sorts keys) and no parameters.
func TestJSONSchemaSent(t *testing.T) {
	m := sdktest.NewModel(modelPath, script[len(script)-1])
	defer m.Close()
	ctx := context.Background()
	client, err := newClient(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	tk := sdktest.Toolkit()
	tools, err := tngenai.Tools(tk, adapters.GeminiJSONSchema())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.Models.GenerateContent(ctx, "gemini-test", genai.Text("hi"), &genai.GenerateContentConfig{Tools: tools}); err != nil {
		t.Fatalf("GenerateContent: %v (model: %v)", err, m.Err())
	}
	rendered, err := tk.ToGemini(adapters.GeminiJSONSchema())
	if err != nil {
		t.Fatal(err)
	}
	var want, got []any
	for _, d := range rendered[0].FunctionDeclarations {
		var v any
		if err := json.Unmarshal(d.ParametersJSONSchema, &v); err != nil {
			t.Fatal(err)
		}
		want = append(want, map[string]any{"name": d.Name, "description": d.Description, "parametersJsonSchema": v})
	}
	var body struct {
		Tools []struct {
			FunctionDeclarations []any `json:"functionDeclarations"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(m.Requests()[0], &body); err != nil {
		t.Fatal(err)
	}
	if len(body.Tools) == 1 {
		got = body.Tools[0].FunctionDeclarations
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("declarations sent (-want +got):\n%s", diff)
	}
}
