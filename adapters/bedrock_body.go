package adapters

// bedrockCache is Bedrock's prompt-cache breakpoint, an element of its
// own after the system prompt's and the tools'.
const bedrockCache = `{"cachePoint":{"type":"default"}}`

// bedrockBody writes a Bedrock Converse request (NewBody): the system
// prompt as "system" blocks, the tools and the tool choice in
// "toolConfig", the maximum and the temperature in "inferenceConfig".
// The model and streaming are the URL's.
func bedrockBody(_ *spec, w *bodyWriter, r *bodyParts) (string, []byte, error) {
	if r.ParallelToolCalls != nil {
		return "", nil, errNoParallelSwitch
	}
	if r.System != "" {
		b := appendString([]byte(`[{"text":`), r.System)
		b = append(b, '}')
		if r.CacheSystem {
			b = append(append(b, ','), bedrockCache...)
		}
		w.raw("system", append(b, ']'))
	}
	if r.tools != nil {
		tc := newObject()
		tools := r.tools
		if r.CacheTools {
			tools = append(append(tools[:len(tools)-1:len(tools)-1], ','), bedrockCache+"]"...)
		}
		tc.raw("tools", tools)
		if r.choice != "" {
			tc.raw(r.choice, r.choiceValue) // "toolChoice"
		}
		w.raw("toolConfig", tc.object())
	}
	if r.answer != "" {
		w.raw(r.answer, r.answerValue)
	}
	ic := newObject()
	if r.MaxTokens > 0 {
		ic.int("maxTokens", r.MaxTokens)
	}
	if r.Temperature != nil {
		ic.float("temperature", *r.Temperature)
	}
	if !ic.empty() {
		w.raw("inferenceConfig", ic.object())
	}
	return "messages", nil, nil
}
