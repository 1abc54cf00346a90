package adapters_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

type weatherArgs struct {
	City string `json:"city"`
}

func getWeather(ctx context.Context, in weatherArgs) (string, error) {
	return "sunny in " + in.City, nil
}

// One tool gives one entry holding one function declaration; the input
// schema becomes "parameters", and the city property is just a string.
func ExampleToGemini() {
	weather := define.MustDefineTool(getWeather,
		define.WithName("get_weather"), define.WithDescription("Current weather for a city"))

	tools, err := adapters.ToGemini([]define.Tool{weather})
	if err != nil {
		panic(err)
	}
	decl := tools[0].FunctionDeclarations[0]
	fmt.Println(len(tools), decl.Name, "-", decl.Description)

	var params struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(decl.Parameters, &params); err != nil {
		panic(err)
	}
	fmt.Println("city:", string(params.Properties["city"]))

	body, _ := json.Marshal(tools)
	fmt.Println(string(body))
	// Output:
	// 1 get_weather - Current weather for a city
	// city: {"type":"string"}
	// [{"functionDeclarations":[{"name":"get_weather","description":"Current weather for a city","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}]}]
}

type searchArgs struct {
	Q string `json:"q"`
}

type pingArgs struct{}

// Many tools are still one entry, declarations in order, and the value
// marshals as plain JSON inside a request body.
func ExampleToGemini_manyTools() {
	search := define.MustDefineTool(func(ctx context.Context, in searchArgs) (string, error) {
		return "results for " + in.Q, nil
	}, define.WithName("search"), define.WithDescription("Search the docs"))
	ping := define.MustDefineTool(func(ctx context.Context, in pingArgs) (string, error) {
		return "pong", nil
	}, define.WithName("ping"), define.WithDescription("Health check"))

	tools, err := adapters.ToGemini([]define.Tool{search, ping})
	if err != nil {
		panic(err)
	}
	body := map[string]any{
		"contents": []any{map[string]any{"role": "user", "parts": []any{map[string]any{"text": "search for adapters"}}}},
		"tools":    tools,
	}
	data, err := json.Marshal(body)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(tools), "entry")
	for _, d := range tools[0].FunctionDeclarations {
		fmt.Println(d.Name)
	}
	fmt.Println(string(data))
	// Output:
	// 1 entry
	// search
	// ping
	// {"contents":[{"parts":[{"text":"search for adapters"}],"role":"user"}],"tools":[{"functionDeclarations":[{"name":"search","description":"Search the docs","parameters":{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}},{"name":"ping","description":"Health check"}]}]}
}

// No tools still give the wrapper, with no declarations inside.
func ExampleToGemini_empty() {
	tools, err := adapters.ToGemini(nil)
	if err != nil {
		panic(err)
	}
	data, _ := json.Marshal(tools)
	fmt.Println(string(data))
	// Output:
	// [{"functionDeclarations":[]}]
}

// A Gemini functionCall goes through Tool.Execute (its args are a JSON
// object) and back as a functionResponse part, matched by name.
func ExampleToGemini_roundTrip() {
	weather := define.MustDefineTool(getWeather,
		define.WithName("get_weather"), define.WithDescription("Current weather for a city"))
	tools := []define.Tool{weather}
	if _, err := adapters.ToGemini(tools); err != nil {
		panic(err)
	}

	// What the model sends back for that declaration.
	reply := []byte(`{"functionCall":{"name":"get_weather","args":{"city":"Chennai"}}}`)
	var part struct {
		FunctionCall struct {
			Name string         `json:"name"`
			Args map[string]any `json:"args"`
		} `json:"functionCall"`
	}
	if err := json.Unmarshal(reply, &part); err != nil {
		panic(err)
	}
	call := part.FunctionCall
	var res define.Result
	for _, t := range tools {
		if t.Name() == call.Name {
			res = t.Execute(context.Background(), call.Args)
		}
	}
	fmt.Println("error:", res.IsError)

	response := map[string]any{"functionResponse": map[string]any{
		"name": call.Name, "response": map[string]any{"output": res.Output},
	}}
	data, _ := json.Marshal(response)
	fmt.Println(string(data))
	// Output:
	// error: false
	// {"functionResponse":{"name":"get_weather","response":{"output":"sunny in Chennai"}}}
}

// Strict mode closes every object, lists every property in required and
// makes the optional ones nullable; an open map is an error that says so.
func ExampleToOpenAI_strict() {
	type args struct {
		City   string            `json:"city"`
		Unit   *string           `json:"unit,omitempty" enum:"C,F"`
		Labels map[string]string `json:"labels,omitempty"`
	}
	tool := define.MustDefineTool(func(ctx context.Context, in args) (string, error) { return "", nil },
		define.WithName("get_weather"))
	_, err := adapters.ToOpenAI([]define.Tool{tool}, adapters.Strict(true))
	fmt.Println(err)

	type closed struct {
		City string  `json:"city"`
		Unit *string `json:"unit,omitempty" enum:"C,F"`
	}
	tool = define.MustDefineTool(func(ctx context.Context, in closed) (string, error) { return "", nil },
		define.WithName("get_weather"))
	tools, err := adapters.ToOpenAI([]define.Tool{tool}, adapters.Strict(true))
	if err != nil {
		panic(err)
	}
	fmt.Println(string(tools[0].Function.Parameters))
	// Output:
	// adapters: ToOpenAI: tool "get_weather": at /properties/labels: an open map (additionalProperties: {"type":"string"}) cannot be expressed in OpenAI strict mode, which requires "additionalProperties": false on every object (consider StrictWherePossible(), which sends this tool non-strict, or a concrete Go type)
	// {"type":"object","properties":{"city":{"type":"string"},"unit":{"anyOf":[{"type":"string","enum":["C","F"]},{"type":"null"}]}},"required":["city","unit"],"additionalProperties":false}
}

// StrictWherePossible renders a mixed list in one call: each tool is strict
// where its schema allows. A tool pinned with define.WithStrict keeps its
// pin whatever the call's option says.
func ExampleStrictWherePossible() {
	type weather struct {
		City string `json:"city"`
	}
	type tag struct {
		Labels map[string]string `json:"labels"` // an open map: not strict
	}
	type search struct {
		Query string `json:"query"`
	}
	noop := func(ctx context.Context, in weather) (string, error) { return "", nil }
	tools := []define.Tool{
		define.MustDefineTool(noop, define.WithName("get_weather")),
		define.MustDefineTool(func(ctx context.Context, in tag) (string, error) { return "", nil }, define.WithName("tag_resource")),
		define.MustDefineTool(func(ctx context.Context, in search) (string, error) { return "", nil },
			define.WithName("search"), define.WithStrict(false)),
	}
	out, err := adapters.ToOpenAIResponses(tools, adapters.StrictWherePossible())
	if err != nil {
		panic(err)
	}
	for _, t := range out {
		fmt.Println(t.Name, t.Strict)
	}
	// Output:
	// get_weather true
	// tag_resource false
	// search false
}

// Without options, a tool whose input the OpenAPI subset cannot carry (here
// a map) is declared with "parametersJsonSchema", and the others keep
// "parameters": one call, no error.
func ExampleToGemini_mixed() {
	type tagArgs struct {
		Resource string            `json:"resource"`
		Labels   map[string]string `json:"labels"`
	}
	tag := define.MustDefineTool(func(ctx context.Context, in tagArgs) (string, error) { return "ok", nil },
		define.WithName("tag_resource"))
	weather := define.MustDefineTool(getWeather, define.WithName("get_weather"))

	tools, err := adapters.ToGemini([]define.Tool{weather, tag})
	if err != nil {
		panic(err)
	}
	for _, d := range tools[0].FunctionDeclarations {
		fmt.Printf("%s: parameters=%t parametersJsonSchema=%t\n", d.Name, d.Parameters != nil, d.ParametersJSONSchema != nil)
	}
	fmt.Println(string(tools[0].FunctionDeclarations[1].ParametersJSONSchema))

	_, err = adapters.ToGemini([]define.Tool{weather, tag}, adapters.GeminiParameters())
	fmt.Println(errors.Is(err, adapters.ErrUnsupported))
	// Output:
	// get_weather: parameters=true parametersJsonSchema=false
	// tag_resource: parameters=false parametersJsonSchema=true
	// {"type":"object","properties":{"resource":{"type":"string"},"labels":{"type":"object","properties":{},"additionalProperties":{"type":"string"}}},"required":["resource","labels"],"additionalProperties":false}
	// true
}

// A failed rendering reports every problem of the call, each with its tool
// and schema path.
func ExampleErrors() {
	type args struct {
		Labels map[string]string `json:"labels"`
		Extra  any               `json:"extra"`
	}
	tool := define.MustDefineTool(func(ctx context.Context, in args) (string, error) { return "", nil },
		define.WithName("tag_resource"))
	_, err := adapters.ToOpenAI([]define.Tool{tool}, adapters.Strict(true))
	var all *adapters.Errors
	if errors.As(err, &all) {
		for _, e := range all.Errs {
			fmt.Println(e.Tool, e.Path, errors.Is(e, adapters.ErrUnsupported))
		}
	}
	// Output:
	// tag_resource /properties/labels true
	// tag_resource /properties/extra true
}

// streamGenerateContent without alt=sse answers with one JSON array of
// responses; ParseGeminiReply makes it the one turn of the stream. The
// replay holds every chunk's parts in order, each as sent, so the thought
// signature stays on the part that carried it.
func ExampleParseGeminiReply_stream() {
	reply := []byte(`[
	  {"candidates": [{"content": {"role": "model", "parts": [{"text": "Let me "}]}}]},
	  {"candidates": [{"content": {"role": "model", "parts": [{"text": "check."},
	    {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}, "thoughtSignature": "c2ln"}]},
	    "finishReason": "STOP"}]},
	  {"usageMetadata": {"promptTokenCount": 9, "totalTokenCount": 20}}
	]`)
	turn, err := adapters.ParseGeminiReply(reply)
	if err != nil {
		panic(err)
	}
	fmt.Printf("text %q, stop %s\n", turn.Text, turn.Stop)
	for _, c := range turn.Calls {
		fmt.Printf("call %s %s, signature %s\n", c.Name, c.Args, c.ThoughtSignature)
	}
	fmt.Printf("%s\n", turn.Replay[0])
	// Output:
	// text "Let me check.", stop STOP
	// call get_weather {"city":"Paris"}, signature c2ln
	// {"role":"model","parts":[{"text":"Let me "},{"text":"check."},{"functionCall":{"name":"get_weather","args":{"city":"Paris"}},"thoughtSignature":"c2ln"}]}
}

// A local model served by Ollama: the tools go out in OpenAI's shape, the
// reply's arguments come back as an object, and each result names its tool.
func ExampleForOllama() {
	weather := define.MustDefineTool(getWeather, define.WithName("get_weather"))
	p := adapters.ForOllama()
	tools, err := p.Tools([]define.Tool{weather})
	if err != nil {
		panic(err)
	}
	body, _ := json.Marshal(map[string]any{"model": "qwen3", "stream": false, "tools": tools, "messages": p.Prompt("Weather in Paris?")})
	fmt.Println(string(body))

	reply := `{"model":"qwen3","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"get_weather","arguments":{"city":"Paris"}}}]},"done":true,"done_reason":"stop"}`
	turn, err := p.Parse([]byte(reply))
	if err != nil {
		panic(err)
	}
	results := []define.Result{weather.ExecuteJSON(context.Background(), turn.Calls[0].Args)}
	next, err := p.Results(turn.Calls, results)
	if err != nil {
		panic(err)
	}
	out, _ := json.Marshal(next)
	fmt.Println(string(out))
	// Output:
	// {"messages":[{"role":"user","content":"Weather in Paris?"}],"model":"qwen3","stream":false,"tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}}}]}
	// [{"role":"tool","tool_name":"get_weather","content":"sunny in Paris"}]
}
