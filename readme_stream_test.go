package toolnexus_test

import (
	"fmt"
	"io"
	"log"
	"strings"

	"github.com/toolnexus/toolnexus/adapters"
)

// The README's streaming example over a streamed OpenAI Chat reply: the
// text as it arrives, then the call once its arguments are whole.
func Example_readmeStream() {
	body := strings.NewReader(`data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"Checking "}}]}

data: {"choices":[{"index":0,"delta":{"content":"Oslo.","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":"}}]}}]}

data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"Oslo\"}"}}]},"finish_reason":"tool_calls"}]}

data: [DONE]

`)
	p := adapters.ForOpenAI()
	run := func() (string, error) {
		// README: stream
		stream, err := adapters.NewStream(p, adapters.StreamHooks{Text: func(d string) { fmt.Print(d) }})
		if err != nil {
			return "", err
		}
		if _, err := io.Copy(stream, body); err != nil { // the raw body of a "stream": true request
			return "", err
		}
		turn, err := stream.Close() // the same Turn as p.Parse of the whole reply
		// README end
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("\n%s %s %s", turn.Stop, turn.Calls[0].Name, turn.Calls[0].Args), nil
	}
	out, err := run()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out)
	// Output:
	// Checking Oslo.
	// tool_calls get_weather {"city":"Oslo"}
}
