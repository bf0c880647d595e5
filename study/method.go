package study

// Method is traces.method: what produced a trace. A trace's identity
// includes its method, so two methods sampling the same example keep both
// traces.
type Method string

// The trace methods.
const (
	// Base is the direction probe's sampling (datg generate).
	Base Method = "base"
	// ControlBase is Table 3's Base (datg control --method base): the
	// probe's examples sampled again with another repetition penalty. It is
	// not Base, so its traces do not replace the probe's.
	ControlBase Method = "control-base"
	// LoopRetry retries a looping trace from its last checkpoint.
	LoopRetry Method = "loop-retry"
	// FormulaRetry writes an execution-state scaffold, then reasons after
	// it.
	FormulaRetry Method = "formula-retry"
	// Reference is a reference reasoning (datg references): input and
	// reasoning language en, seed = ref_index.
	Reference Method = "reference"
)

// Methods lists the methods a trace may be produced by.
var Methods = []Method{Base, ControlBase, LoopRetry, FormulaRetry, Reference}

// ParseMethod returns the method s names.
func ParseMethod(s string) (Method, error) { return parse(s, Methods, ErrUnknownMethod) }
