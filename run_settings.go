package toolnexus

import "time"

// RunSettings reports what opts set, as [Toolkit.Run] reads them: the
// parallelism ([DefaultParallelism] when unset or below 1) and the call
// timeout (0 when unset or not positive: no bound). It is for code that
// runs calls outside Run under the same options, such as an MCP server's
// tool handlers, which bound all the calls of a server rather than those
// of one batch.
func RunSettings(opts ...RunOption) (parallelism int, callTimeout time.Duration) {
	var c runConfig
	for _, o := range opts {
		if o != nil {
			o.applyRun(&c)
		}
	}
	if c.parallelism < 1 {
		c.parallelism = DefaultParallelism
	}
	if c.callTimeout < 0 {
		c.callTimeout = 0
	}
	return c.parallelism, c.callTimeout
}
