// Package toolnexus turns typed Go functions into tools that LLMs can call,
// and speaks each major provider's tool format.
//
// A tool is defined once from a Go function (package define), gathered
// with others in a [Toolkit], rendered for a provider's request (OpenAI
// Chat Completions and Responses, Anthropic, Gemini, MCP, Bedrock, Ollama,
// Mistral, and OpenAI-compatible servers; package adapters), and executed
// from the arguments the model sends back:
//
//	weather := define.MustDefineTool(getWeather,
//		define.WithName("get_weather"),
//		define.WithDescription("Current weather for a city"))
//	tk, err := toolnexus.NewToolkit(weather)
//	tools, err := tk.ToGemini()                                      // the request's "tools"
//	res := tk.Execute(ctx, call.Name, call.Args)                      // Gemini functionCall
//	res = tk.ExecuteJSON(ctx, call.Function.Name, []byte(arguments)) // OpenAI tool call
//
// # The agent loop
//
// An [Agent] runs the whole conversation: each provider's request body,
// sent through a transport (package transport: every provider's endpoint
// on net/http), each reply's calls run, their results sent back, until
// the model answers, a limit is reached, or a call waits for approval
// ([Agent.Resume] carries the run on from its JSON state, in any
// process):
//
//	agent, err := toolnexus.NewAgent(ep.Provider, tk, "claude-sonnet-4-5",
//		toolnexus.WithTransport(ep), toolnexus.WithMaxSteps(10))
//	run, err := agent.Run(ctx, "What's the weather in Paris?")
//	fmt.Println(run.Text, run.Usage.Input, run.Usage.Output)
//
// See docs/agent.md.
//
// # The call lifecycle
//
// [NewToolkitWith] options run code around every call: [WithMiddleware]
// and [WithToolMiddleware] around the handler, after the arguments are
// validated; [WithObserver] (and the ready [SlogObserver]) for every
// result delivered; [WithApproval] for tools that never run before a
// person decides ([PendingCalls], [Toolkit.Resume]). See docs/lifecycle.md.
//
// # Packages
//
//   - define: [define.DefineTool], [define.NewTool], [define.Tool], [define.Result].
//   - schema: Go types to the canonical JSON Schema.
//   - adapters: provider wire formats (tools arrays, calls, results).
//   - toolsearch: the tools of a large toolkit that fit a request (BM25F).
//   - golden: golden-file tests for your own tool schemas.
package toolnexus
