package adapters

// geminiBody writes a Gemini generateContent request (NewBody): the
// system prompt as "systemInstruction", the history as "contents", the
// maximum and the temperature in "generationConfig" with a response
// format's members. The model and streaming are the URL's.
func geminiBody(_ *spec, w *bodyWriter, r *bodyParts) (string, []byte, error) {
	if r.CacheTools || r.CacheSystem {
		return "", nil, errNoCacheBreakpoints
	}
	if r.ParallelToolCalls != nil {
		return "", nil, errNoParallelSwitch
	}
	if r.System != "" {
		b := appendString([]byte(`{"parts":[{"text":`), r.System)
		w.raw("systemInstruction", append(b, "}]}"...))
	}
	if r.tools != nil {
		w.raw("tools", r.tools)
	}
	if r.choice != "" {
		w.raw(r.choice, r.choiceValue)
	}
	g := newObject()
	if r.MaxTokens > 0 {
		g.int("maxOutputTokens", r.MaxTokens)
	}
	if r.Temperature != nil {
		g.float("temperature", *r.Temperature)
	}
	switch {
	case r.answer != "":
		w.raw(r.answer, withMembers(r.answerValue, g)) // "generationConfig"
	case !g.empty():
		w.raw("generationConfig", g.object())
	}
	return "contents", nil, nil
}
