package toolsearch_test

import (
	"context"
	"fmt"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/toolsearch"
)

type weatherArgs struct {
	City string `json:"city" description:"City name, e.g. Paris"`
}

type fileArgs struct {
	Path string `json:"path" description:"Path of the file in the workspace"`
}

// Pick the tools of a large toolkit that fit the user's message, and
// render only those for a provider without deferred loading.
func Example() {
	weather := define.MustDefineTool(func(_ context.Context, a weatherArgs) (string, error) { return "sunny", nil },
		define.WithName("get_weather"), define.WithDescription("Current weather and forecast for a city."))
	readFile := define.MustDefineTool(func(_ context.Context, a fileArgs) (string, error) { return "", nil },
		define.WithName("read_file"), define.WithDescription("Read a file and return its text."))

	ix := toolsearch.FromTools([]define.Tool{readFile, weather})
	picked := ix.Tools("Will it rain in Paris tomorrow? Check the forecast.", 1)
	tools, err := adapters.ToGemini(picked)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(tools[0].FunctionDeclarations), tools[0].FunctionDeclarations[0].Name)
	// Output: 1 get_weather
}
