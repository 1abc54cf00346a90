package toolnexus_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// README: answer-type
type Invoice struct {
	Number string `json:"number" pattern:"^INV-[0-9]+$"`
	Total  int64  `json:"total" minimum:"0" description:"In cents"`
	Lines  []Line `json:"lines" minItems:"1"`
}

type Line struct {
	Item     string `json:"item"`
	Quantity int    `json:"quantity" minimum:"1"`
}

// README end

// invoiceReplies is a scripted OpenAI model: it first gets the total's
// type wrong, then, asked again, answers right.
var invoiceReplies = []string{
	`{"choices":[{"index":0,"message":{"role":"assistant","refusal":null,"content":"{\"number\":\"INV-7\",\"total\":\"12.50\",\"lines\":[{\"item\":\"tea\",\"quantity\":2}]}"},"finish_reason":"stop"}]}`,
	`{"choices":[{"index":0,"message":{"role":"assistant","refusal":null,"content":"{\"number\":\"INV-7\",\"total\":1250,\"lines\":[{\"item\":\"tea\",\"quantity\":2}]}"},"finish_reason":"stop"}]}`,
}

// README: answer
func extractInvoice(text string, callModel func(format adapters.AnswerRequest, history []any) ([]byte, error)) (Invoice, error) {
	invoice := define.MustDefineAnswer[Invoice](define.WithDescription("The invoice's fields"))
	// or ForOpenAIResponses, ForAnthropic, ForGemini, ForBedrock, ForOllama, ForMistral
	p := adapters.ForOpenAI()
	format, err := adapters.ResponseFormat(p, invoice) // format.Field is "response_format", format.Value its JSON
	if err != nil {
		return Invoice{}, err
	}
	history := p.Prompt("Extract the invoice: " + text)
	for try := 0; ; try++ {
		reply, err := callModel(format, history)
		if err != nil {
			return Invoice{}, err
		}
		turn, err := p.Parse(reply)
		if err != nil {
			return Invoice{}, err
		}
		inv, err := adapters.DecodeAnswer(p, invoice, turn)
		if err == nil || try == 2 {
			return inv, err // a refusal is adapters.ErrRefused, a cut answer adapters.ErrIncomplete
		}
		retry, rerr := adapters.RetryAnswer(p, invoice, turn, err) // every problem, with its path
		if rerr != nil {
			return Invoice{}, err // not a mistake the model can correct
		}
		history = append(append(history, turn.Replay...), retry...)
	}
}

// README end

// The typed answer of the README: asked for with OpenAI's response format,
// decoded, asked again once for a mistake.
func Example_readmeAnswer() {
	calls := 0
	model := func(format adapters.AnswerRequest, history []any) ([]byte, error) {
		if calls == 1 { // the second request: the re-ask follows the model's answer
			data, _ := json.Marshal(history[len(history)-1])
			fmt.Println(string(data))
		}
		calls++
		return []byte(invoiceReplies[calls-1]), nil
	}
	inv, err := extractInvoice("INV-7, two teas, 12.50", model)
	fmt.Printf("%+v %v\n", inv, err)
	// Output:
	// {"role":"user","content":"Your answer does not match the JSON Schema of the response format (invoice): /total: expected integer, got \"12.50\". Reply again with the corrected answer as JSON only."}
	// {Number:INV-7 Total:1250 Lines:[{Item:tea Quantity:2}]} <nil>
}

// weatherThenAnswer is a scripted Anthropic model: a tool call first, then
// the typed answer, in one conversation.
var weatherThenAnswer = []string{
	`{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","stop_reason":"tool_use","stop_sequence":null,"content":[
		{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Oslo"}}]}`,
	`{"id":"msg_2","type":"message","role":"assistant","model":"claude-test","stop_reason":"end_turn","stop_sequence":null,"content":[
		{"type":"text","text":"{\"city\":\"Oslo\",\"sky\":\"sunny\",\"pack\":[\"sunglasses\"]}"}]}`,
}

// README: answer-plan
type Plan struct {
	City string   `json:"city"`
	Sky  string   `json:"sky"`
	Pack []string `json:"pack" maxItems:"5"`
}

// README end

// The answer in the same conversation as tool calls: the loop runs the
// calls until the reply is the answer.
func Example_answerAfterTools() {
	ctx := context.Background()
	replies := weatherThenAnswer
	callModel := func(tools any, format adapters.AnswerRequest, history []any) ([]byte, error) {
		r := replies[0]
		replies = replies[1:]
		return []byte(r), nil
	}
	tk, err := toolnexus.NewToolkit(define.MustDefineTool(getWeather))
	if err != nil {
		log.Fatal(err)
	}
	plan, err := planTrip(ctx, tk, "What do I pack for Oslo?", callModel)
	fmt.Printf("%+v %v\n", plan, err)
	// Output:
	// {City:Oslo Sky:sunny Pack:[sunglasses]} <nil>
}

// README: answer-tools
func planTrip(ctx context.Context, tk *toolnexus.Toolkit, question string,
	callModel func(tools any, format adapters.AnswerRequest, history []any) ([]byte, error)) (Plan, error) {
	plan := define.MustDefineAnswer[Plan]()
	p := adapters.ForAnthropic() // its output_config.format; adapters.AnswerTool() for models without one
	tools, err := p.Tools(tk.Tools())
	if err != nil {
		return Plan{}, err
	}
	format, err := adapters.ResponseFormat(p, plan)
	if err != nil {
		return Plan{}, err
	}
	history := p.Prompt(question)
	for {
		reply, err := callModel(tools, format, history)
		if err != nil {
			return Plan{}, err
		}
		turn, err := p.Parse(reply)
		if err != nil {
			return Plan{}, err
		}
		history = append(history, turn.Replay...)
		answer, err := adapters.DecodeAnswer(p, plan, turn)
		if !errors.Is(err, adapters.ErrToolCalls) {
			return answer, err
		}
		next, err := p.Results(turn.Calls, tk.Run(ctx, turn.Calls))
		if err != nil {
			return Plan{}, err
		}
		history = append(history, next...)
	}
}

// README end
