package simulate

import (
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/datg/datg/internal/inputerr"
)

// Config configures a simulator. Start from DefaultConfig.
type Config struct {
	// Listen is the first address to listen on; with Count > 1 and a fixed
	// port the others take the following ports, with port 0 each gets its own.
	Listen string
	// Count is the number of endpoints to serve (one per simulated GPU).
	Count int
	// URLFile, when set, receives the endpoints' base URLs, one a line, once
	// all are listening (written atomically).
	URLFile string
	// Notices receives Run's lines saying what it serves (nil: nowhere).
	Notices io.Writer
	// Data is a run directory whose problems table is the answer key.
	Data string
	// Solutions is a JSONL file of worked solutions ({"problem_id",
	// "steps"}) whose equations the simulated model writes (and gets wrong).
	Solutions string
	// Content injects faults into the JSON of DAG and alignment replies.
	Content ContentFaults
	// Profile sets accuracy and failure rates.
	Profile Profile
	// Latency is the fixed time each request takes; TokenLatency is added
	// per generated token.
	Latency, TokenLatency time.Duration
	// MaxSeqs is how many requests an endpoint serves at once; more wait
	// (vLLM's max_num_seqs).
	MaxSeqs int
	// Faults are injected at these rates.
	Faults Faults
	// ReasoningField makes chat completions return the reasoning in
	// reasoning_content (as vLLM's reasoning parser does) instead of inline.
	ReasoningField bool
	// ReasoningKey names that field: "reasoning_content" (the default) or
	// "reasoning" (newer vLLM's name).
	ReasoningKey string
	// TrustRequestChatTemplate accepts a chat_template in a request, as
	// vLLM started with --trust-request-chat-template does; without it such
	// a request gets vLLM's 400.
	TrustRequestChatTemplate bool
	// MaxModelLen is the context length /v1/models reports (vLLM's
	// max_model_len); a request whose prompt and max_tokens exceed it gets
	// vLLM's 400. Default 40960 (Qwen3's).
	MaxModelLen int
	// Version is what /version reports (vLLM's server version); empty, the
	// server has no /version (an OpenAI-compatible server that is not vLLM).
	Version string
	// Dialect is the API the simulator speaks: "vllm" (the default) or
	// "openai": OpenAI's chat API, which refuses fields it does not know
	// (vLLM's sampling fields among them) and, for its reasoning models
	// (o-series, GPT-5), max_tokens and any temperature or top_p but the
	// default, and hides the reasoning (counted in reasoning_tokens); or
	// "modelstudio": Alibaba Cloud Model Studio's compatible mode, which
	// refuses thinking without streaming and returns the reasoning in
	// reasoning_content (modelstudio.go).
	Dialect string
	// HiddenReasoning is how many tokens an OpenAI reasoning model
	// (Dialect openai, o-series or GPT-5 names) reasons, unseen, before
	// each answer; its max_completion_tokens counts them with the answer,
	// so a budget at or below it gets empty content with finish_reason
	// length and the reasoning counted, as OpenAI answers when a model
	// spends its budget reasoning. 0: a short plan only.
	HiddenReasoning int
	// RequireKey, when set, is the only API key accepted; a wrong key gets a
	// 401 that echoes it back (as careless servers do), to test redaction.
	RequireKey string
	// Models are the names /v1/models lists. Requests for other names are
	// served too; the name only scales accuracy by the size it mentions.
	Models []string
	// Batch shapes the Batch API (/v1/files, /v1/batches): its latency in
	// polls and its failed, expired and partially failed batches.
	Batch BatchConfig
	// Seed seeds fault injection.
	Seed uint64
	// Log, when set, receives one line per request.
	Log io.Writer
}

// Faults are server failures injected per request. The rates are of one
// draw per request, so they add up to at most 1.
type Faults struct {
	ErrorRate     float64 // answer with an HTTP error from ErrorCodes
	ErrorCodes    []int   // default 429, 500, 503
	DropRate      float64 // drop the connection halfway through the response
	MalformedRate float64 // answer 200 with a body that is not valid JSON
	Dead          bool    // drop every connection at once
	// NoQuota answers every request with OpenAI's 429 insufficient_quota.
	NoQuota bool
	// EmptyRate answers 200 with valid JSON but no text, as EmptyForm says.
	EmptyRate float64
	// EmptyForm is one of EmptyForms: "null" (the default: the text, or the
	// chat content, null and no reasoning), "empty" ("" cut at the budget),
	// "missing" (no text field at all), "no-choices" (an empty choices
	// list), or "stop" ("" with finish_reason stop after one token: a model
	// whose first token ended it, which is an answer, not a fault).
	EmptyForm string
	// BadUsageRate answers 200 with a reply whose completion_tokens is
	// BadUsage (default -1; any JSON number, such as 3e9 or 1e20).
	BadUsageRate float64
	BadUsage     float64
	// TrickleRate answers 200 with the whole reply, sent one byte every
	// TrickleInterval (default a second) after the headers.
	TrickleRate     float64
	TrickleInterval time.Duration
	// ImpossibleRate answers 200 with a reply no vLLM or OpenAI server
	// gives, as ImpossibleForm says (one of ImpossibleForms).
	ImpossibleRate float64
	ImpossibleForm string
	// Models breaks /v1/models: "error" (a 500), "garbage" (200 with a
	// body that is not JSON) or "empty" (a list of no models).
	Models string
}

// EmptyForms are the forms of a reply without text (Faults.EmptyForm).
var EmptyForms = []string{"null", "empty", "missing", "no-choices", "stop"}

// ImpossibleForms are the replies no server gives (Faults.ImpossibleForm),
// each valid JSON that decodes without an error:
//
//   - "no-usage": no usage object (vLLM and OpenAI count every reply);
//   - "zero-tokens": the text with usage.completion_tokens 0;
//   - "over-budget": 1,000 completion tokens more than max_tokens allowed,
//     with finish_reason stop;
//   - "two-choices": a second choice to a request for one (n=1);
//   - "duplicate-key": the "choices" key twice, with different answers;
//   - "control-finish-reason": finish_reason "stop" with a NUL and a
//     newline after it;
//   - "invalid-utf8": bytes in the text that are not UTF-8.
var ImpossibleForms = []string{"no-usage", "zero-tokens", "over-budget", "two-choices", "duplicate-key", "control-finish-reason", "invalid-utf8"}

// ModelsFaults are the ways /v1/models can be broken (Faults.Models).
var ModelsFaults = []string{"error", "garbage", "empty"}

// ContentFaults are defects of a model's structured replies, injected at
// these rates into DAG-construction and alignment answers.
type ContentFaults struct {
	Fenced      float64 // JSON in a code fence, with prose around it (still readable)
	Malformed   float64 // JSON cut off halfway (unreadable)
	Cycle       float64 // a DAG with a cycle (a repair request fixes it)
	UnknownNode float64 // an alignment event for a node the DAG does not have
	AbsentSpan  float64 // an evidence span that is nowhere in the trace
	BadStatus   float64 // an event status that is none of COMMIT, ATTEMPT, ERROR
	// ScaffoldLeak is the rate of Formula-Retry scaffolds that give the
	// result away (a Final answer line, a boxed answer or a computed total),
	// which the control must sanitize.
	ScaffoldLeak float64
}

// Dialects the simulator speaks (Config.Dialect).
const (
	DialectVLLM   = "vllm"
	DialectOpenAI = "openai"
	// DialectModelStudio is Alibaba Cloud Model Studio's OpenAI-compatible
	// mode (modelstudio.go).
	DialectModelStudio = "modelstudio"
)

// DefaultConfig is one healthy endpoint on a free loopback port.
func DefaultConfig() Config {
	return Config{
		Listen:      "127.0.0.1:0",
		Count:       1,
		Profile:     DefaultProfile(),
		MaxSeqs:     16,
		Seed:        1,
		MaxModelLen: 40960,
		Version:     "0.11.0+datg.simulator",
		Dialect:     DialectVLLM,
		Models:      []string{"Qwen/Qwen3-1.7B", "Qwen/Qwen3-4B", "Qwen/Qwen3-8B"},
	}
}

// Validate reports settings that cannot work, each naming its field.
func (c Config) Validate() error {
	var p inputerr.Problems
	if c.Count < 1 {
		p.Add("Count", "must be at least 1, not %d", c.Count)
	}
	if c.MaxSeqs < 1 {
		p.Add("MaxSeqs", "must be at least 1, not %d", c.MaxSeqs)
	}
	type rate struct {
		field string
		r     float64
	}
	f := c.Faults
	for _, x := range []rate{{"Faults.ErrorRate", f.ErrorRate}, {"Faults.DropRate", f.DropRate}, {"Faults.MalformedRate", f.MalformedRate},
		{"Faults.EmptyRate", f.EmptyRate}, {"Faults.BadUsageRate", f.BadUsageRate}, {"Faults.TrickleRate", f.TrickleRate}, {"Faults.ImpossibleRate", f.ImpossibleRate},
		{"Content.Fenced", c.Content.Fenced}, {"Content.Malformed", c.Content.Malformed}, {"Content.Cycle", c.Content.Cycle},
		{"Content.UnknownNode", c.Content.UnknownNode}, {"Content.AbsentSpan", c.Content.AbsentSpan},
		{"Content.BadStatus", c.Content.BadStatus}, {"Content.ScaffoldLeak", c.Content.ScaffoldLeak}} {
		if !(x.r >= 0 && x.r <= 1) {
			p.Add(x.field, "rate %v is not in [0, 1]", x.r)
		}
	}
	if f.ErrorRate+f.DropRate+f.MalformedRate+f.EmptyRate+f.BadUsageRate+f.TrickleRate+f.ImpossibleRate > 1 {
		p.Add("Faults", "fault rates add up to more than 1")
	}
	if f.EmptyForm != "" && !slices.Contains(EmptyForms, f.EmptyForm) {
		p.Add("Faults.EmptyForm", "%q is none of %s", f.EmptyForm, strings.Join(EmptyForms, ", "))
	}
	if f.ImpossibleForm != "" && !slices.Contains(ImpossibleForms, f.ImpossibleForm) {
		p.Add("Faults.ImpossibleForm", "%q is none of %s", f.ImpossibleForm, strings.Join(ImpossibleForms, ", "))
	}
	if f.Models != "" && !slices.Contains(ModelsFaults, f.Models) {
		p.Add("Faults.Models", "%q is none of %s", f.Models, strings.Join(ModelsFaults, ", "))
	}
	if math.IsNaN(f.BadUsage) || math.IsInf(f.BadUsage, 0) {
		p.Add("Faults.BadUsage", "%v is not a JSON number", f.BadUsage)
	}
	if f.TrickleInterval < 0 {
		p.Add("Faults.TrickleInterval", "must not be negative")
	}
	for _, code := range c.Faults.ErrorCodes {
		if code < 400 || code > 599 {
			p.Add("Faults.ErrorCodes", "%d is not an HTTP error", code)
		}
	}
	if c.ReasoningKey != "" && c.ReasoningKey != "reasoning_content" && c.ReasoningKey != "reasoning" {
		p.Add("ReasoningKey", "%q is neither reasoning_content nor reasoning", c.ReasoningKey)
	}
	if c.Dialect != DialectVLLM && c.Dialect != DialectOpenAI && c.Dialect != DialectModelStudio {
		p.Add("Dialect", "%q is none of %s, %s, %s", c.Dialect, DialectVLLM, DialectOpenAI, DialectModelStudio)
	}
	if c.HiddenReasoning < 0 {
		p.Add("HiddenReasoning", "must not be negative, not %d", c.HiddenReasoning)
	}
	if c.MaxModelLen < 1 {
		p.Add("MaxModelLen", "must be at least 1, not %d", c.MaxModelLen)
	}
	p.Check("Batch", c.Batch.Validate())
	if c.Latency < 0 {
		p.Add("Latency", "must not be negative")
	}
	if c.TokenLatency < 0 {
		p.Add("TokenLatency", "must not be negative")
	}
	return p.Err()
}
