package adapters

// ollamaBody writes an Ollama /api/chat request (NewBody): the maximum
// and the temperature go in "options" (num_predict, temperature), and
// "stream" is always written, as Ollama streams unless told not to.
func ollamaBody(_ *spec, w *bodyWriter, r *bodyParts) (string, []byte, error) {
	if r.CacheTools || r.CacheSystem {
		return "", nil, errNoCacheBreakpoints
	}
	if r.ParallelToolCalls != nil {
		return "", nil, errNoParallelSwitch
	}
	if r.Model != "" {
		w.str("model", r.Model)
	}
	if r.tools != nil {
		w.raw("tools", r.tools)
	}
	if r.answer != "" {
		w.raw(r.answer, r.answerValue)
	}
	o := newObject()
	if r.MaxTokens > 0 {
		o.int("num_predict", r.MaxTokens)
	}
	if r.Temperature != nil {
		o.float("temperature", *r.Temperature)
	}
	if !o.empty() {
		w.raw("options", o.object())
	}
	w.boolean("stream", r.Stream)
	return "messages", systemMessage(r.System), nil
}
