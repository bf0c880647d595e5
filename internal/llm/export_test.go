package llm

// SetBatchHook sets the function called at each step of a batch
// submission and poll (nil: none), for tests that kill the process there.
func SetBatchHook(f func(step string)) { batchHook = f }
