package tngenai_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/golden"
	"github.com/toolnexus/toolnexus/integrations/genai"
	"github.com/toolnexus/toolnexus/internal/sdktest"
	"google.golang.org/genai"
)

var forecast = define.MustDefineAnswer[sdktest.Forecast](define.WithDescription("The forecast the user asked for"))

// candidate is a response whose first candidate has parts and finish.
func candidate(finish, parts string) string {
	return `{"candidates":[{"content":{"role":"model","parts":[` + parts + `]},"finishReason":"` + finish + `"}]}`
}

func textPart(s string) string {
	b, _ := json.Marshal(s)
	return `{"text":` + string(b) + `}`
}

// TestAnswerResponseSchema: the official client, unmodified, asks for the
// typed answer after the function calls of the conversation (the tools
// and the response schema in one config); the last response decodes into
// a Forecast, a thought before it aside. Every request is the golden one.
func TestAnswerResponseSchema(t *testing.T) {
	final := candidate("STOP", `{"text":"Weighing it.","thought":true},`+textPart(sdktest.ForecastText))
	replies := append(append([]string(nil), script[:2]...), final)
	m := sdktest.NewModel(modelPath, replies...)
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
	config := &genai.GenerateContentConfig{Tools: tools, Temperature: genai.Ptr[float32](0)}
	if err := tngenai.SetResponseFormat(config, forecast); err != nil {
		t.Fatal(err)
	}
	if config.ResponseMIMEType != "application/json" || config.ResponseSchema == nil || config.ResponseJsonSchema != nil || config.Temperature == nil {
		t.Fatalf("config = %+v", config)
	}
	history := []*genai.Content{genai.NewContentFromText("Forecast for Oslo?", genai.RoleUser)}
	var got sdktest.Forecast
	for turn := 1; ; turn++ {
		if turn > len(replies) {
			t.Fatal("the loop did not end")
		}
		resp, err := client.Models.GenerateContent(ctx, "gemini-test", history, config)
		if err != nil {
			t.Fatalf("turn %d: %v (model: %v)", turn, err, m.Err())
		}
		got, err = tngenai.DecodeAnswer(forecast, resp)
		if errors.Is(err, adapters.ErrToolCalls) {
			next, _, err := tngenai.Run(ctx, tk, resp)
			if err != nil {
				t.Fatal(err)
			}
			history = append(history, next...)
			continue
		}
		if err != nil {
			t.Fatalf("turn %d: DecodeAnswer: %v", turn, err)
		}
		break
	}
	if got != sdktest.ForecastValue {
		t.Errorf("answer = %+v, want %+v", got, sdktest.ForecastValue)
	}
	golden.JSON(t, "testdata/answer_requests.json", m.Requests())
}

// TestAnswerJSONSchema: a schema the OpenAPI subset cannot carry goes as
// responseJsonSchema, the rendered bytes; GeminiJSONSchema forces it.
func TestAnswerJSONSchema(t *testing.T) {
	type tally struct {
		Counts map[string]int `json:"counts"`
	}
	for _, c := range []struct {
		name string
		a    define.AnyAnswer
		opts []adapters.Option
	}{
		{"map", define.MustDefineAnswer[tally](), nil},
		{"forced", forecast, []adapters.Option{adapters.GeminiJSONSchema()}},
	} {
		config := &genai.GenerateContentConfig{ResponseSchema: &genai.Schema{Type: genai.TypeString}}
		if err := tngenai.SetResponseFormat(config, c.a, c.opts...); err != nil {
			t.Fatal(err)
		}
		req, _ := adapters.ResponseFormat(adapters.ForGemini(c.opts...), c.a)
		var gc struct {
			JSONSchema json.RawMessage `json:"responseJsonSchema"`
		}
		if err := json.Unmarshal(req.Value, &gc); err != nil {
			t.Fatal(err)
		}
		raw, ok := config.ResponseJsonSchema.(json.RawMessage)
		if config.ResponseSchema != nil || !ok || string(raw) != string(gc.JSONSchema) {
			t.Errorf("%s: ResponseSchema %v, ResponseJsonSchema %s; want %s", c.name, config.ResponseSchema, raw, gc.JSONSchema)
		}
	}
	if err := tngenai.SetResponseFormat(nil, forecast); err == nil {
		t.Error("SetResponseFormat(nil config): no error")
	}
	if err := tngenai.SetResponseFormat(&genai.GenerateContentConfig{}, forecast, adapters.AnswerTool()); err == nil {
		t.Error("SetResponseFormat with AnswerTool: no error")
	}
}

func TestAnswerOutcomes(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name, reply string
		is          error
	}{
		{"max tokens", candidate("MAX_TOKENS", textPart(`{"city":"Os`)), adapters.ErrIncomplete},
		{"safety", `{"candidates":[{"finishReason":"SAFETY"}]}`, adapters.ErrRefused},
		{"function call", script[0], adapters.ErrToolCalls},
		{"bad", candidate("STOP", textPart(`{"city":"Oslo","temp_c":99,"sky":"fog"}`)), define.ErrConstraint},
		{"blocked prompt", `{"promptFeedback":{"blockReason":"SAFETY"}}`, tngenai.ErrReply},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := sdktest.NewModel(modelPath, c.reply)
			defer m.Close()
			client, err := newClient(ctx, m)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := client.Models.GenerateContent(ctx, "gemini-test", genai.Text("Forecast?"), nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tngenai.DecodeAnswer(forecast, resp); !errors.Is(err, c.is) {
				t.Errorf("DecodeAnswer = %v, want %v", err, c.is)
			}
		})
	}
	if _, err := tngenai.DecodeAnswer(forecast, nil); !errors.Is(err, tngenai.ErrReply) {
		t.Errorf("DecodeAnswer(nil) = %v", err)
	}
	// A forced call of the answer's tool, with AnswerTool.
	var resp genai.GenerateContentResponse
	if err := json.Unmarshal([]byte(candidate("STOP", `{"functionCall":{"name":"forecast","args":`+sdktest.ForecastText+`}}`)), &resp); err != nil {
		t.Fatal(err)
	}
	if got, err := tngenai.DecodeAnswer(forecast, &resp, adapters.AnswerTool()); err != nil || got != sdktest.ForecastValue {
		t.Errorf("forced DecodeAnswer = %+v, %v", got, err)
	}
}

// The typed answer with the genai SDK: the response schema in the
// config, the response decoded into a Go value.
func ExampleDecodeAnswer() {
	ctx := context.Background()
	m := sdktest.NewModel(modelPath, candidate("STOP", textPart(sdktest.ForecastText)))
	defer m.Close()
	client, err := newClient(ctx, m)
	if err != nil {
		fmt.Println(err)
		return
	}

	forecast := define.MustDefineAnswer[sdktest.Forecast]()
	config := &genai.GenerateContentConfig{}
	if err := tngenai.SetResponseFormat(config, forecast); err != nil {
		fmt.Println(err)
		return
	}
	resp, err := client.Models.GenerateContent(ctx, "gemini-test", genai.Text("Forecast for Oslo?"), config)
	if err != nil {
		fmt.Println(err)
		return
	}
	f, err := tngenai.DecodeAnswer(forecast, resp)
	fmt.Printf("%+v %v\n", f, err)
	// Output:
	// {City:Oslo TempC:12 Sky:overcast Note:} <nil>
}
