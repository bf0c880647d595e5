package schema

import "time"

// Integer widths: every token count, budget and checkpoint is int64 (a
// server's or an import's count can pass 2^31, which an int32 wrapped to a
// negative number). The int32 columns are bounded far below 2^31, and their
// doc says by what: character offsets and letter counts by the text (a
// Parquet page, so a stored text, is under 2^31 bytes), DAG sizes by the
// caps of transforms/datg, attempts and indexes by the flags' validated
// ranges, an alignment's counts by the reply they were read from.

// Problem is one benchmark problem in one language.
type Problem struct {
	ProblemID string `parquet:"problem_id" doc:"{level}-{k}; the same id in every language (PolyMath's medium-sw-12 is medium-12)"`
	Level     string `parquet:"level" doc:"low, medium, high or top"`
	Lang      string `parquet:"lang" doc:"ISO 639-1 code of the question's language"`
	K         int32  `parquet:"k" doc:"0-based index of the problem within its level (its line in the source file)"`
	SourceID  string `parquet:"source_id" doc:"the id the source gave the row (e.g. medium-sw-12)"`
	Question  string `parquet:"question" blob:"true" doc:"problem statement in lang"`
	Answer    string `parquet:"answer" doc:"gold answer, identical in every language"`
	Source    string `parquet:"source" doc:"file the row was read from, relative to the ingested directory"`
}

// Trace is one sampled reasoning trace.
type Trace struct {
	TraceID           string    `parquet:"trace_id" doc:"deterministic id of (model, input_lang, reasoning_lang, level, problem_id, seed, method)"`
	Model             string    `parquet:"model" doc:"model name as served (e.g. Qwen/Qwen3-4B)"`
	InputLang         string    `parquet:"input_lang" doc:"language of the problem statement"`
	ReasoningLang     string    `parquet:"reasoning_lang" doc:"requested language of the reasoning trace"`
	Direction         string    `parquet:"direction" doc:"en-en, en-x, x-en or x-x, from (input_lang, reasoning_lang)"`
	Level             string    `parquet:"level" doc:"problem level"`
	ProblemID         string    `parquet:"problem_id" doc:"problem id, {level}-{k}"`
	Seed              int64     `parquet:"seed" doc:"sampling seed of the run"`
	Method            string    `parquet:"method" doc:"base (datg generate: the direction probe at its seed, 42; base traces of other seeds are samples beyond it, in no probe table), control-base (datg control --method base: Table 3's Base), loop-retry, formula-retry or reference"`
	Text              string    `parquet:"text" blob:"true" doc:"the whole assistant turn: <think>, the direct-first prefix, the reasoning, </think> and the answer"`
	TextHash          string    `parquet:"text_hash" doc:"SHA-256 prefix of text; verdicts and alignments record it to tell when a trace changed"`
	Prefix            string    `parquet:"prefix" doc:"the assistant-side prefix the model continued (empty for imported traces)"`
	CompletionTokens  int64     `parquet:"completion_tokens" doc:"decoded tokens, as the server counted them"`
	PromptTokens      int64     `parquet:"prompt_tokens" doc:"prompt tokens, as the server counted them (0 when unknown)"`
	FinishReason      string    `parquet:"finish_reason" doc:"stop or length as the server reported it (empty when unknown)"`
	Truncated         bool      `parquet:"truncated" doc:"the token budget cut the trace (finish_reason length)"`
	MaxTokens         *int64    `parquet:"max_tokens,optional" doc:"token budget of the request as sent (a control's: the whole budget of its attempts); NULL for an imported trace that did not say"`
	Temperature       *float64  `parquet:"temperature,optional" doc:"sampling temperature as sent; NULL when not sent (an OpenAI reasoning model, which fixes it) or not said (an import)"`
	TopP              *float64  `parquet:"top_p,optional" doc:"nucleus sampling top_p as sent; NULL as for temperature"`
	TopK              *int64    `parquet:"top_k,optional" since:"v0.2.0" doc:"vLLM top_k as sent (-1: off); NULL when not sent (references, OpenAI) or not said"`
	RepetitionPenalty *float64  `parquet:"repetition_penalty,optional" doc:"vLLM repetition_penalty as sent (1 = none); NULL when not sent or not said"`
	ServedModel       string    `parquet:"served_model" since:"v0.2.0" doc:"the model id the server answered with (vLLM: the served name; OpenAI: the dated snapshot); empty for imported traces"`
	RequestKey        string    `parquet:"request_key" doc:"content hash of the LLM request that produced the text (empty for imported traces)"`
	Endpoint          string    `parquet:"endpoint" doc:"base URL of the server that answered"`
	Source            string    `parquet:"source" doc:"generate, control or import:<file>"`
	PromptSet         string    `parquet:"prompt_set" since:"v0.2.0" doc:"SHA-256 of the prompt set the request was rendered from (datg prompts export; --prompts DIR): the builtin set's hash unless --prompts was given; empty for imported traces"`
	CreatedAt         time.Time `parquet:"created_at,timestamp(millisecond)" doc:"when the response was received or imported"`
}

// Answer is the grader's verdict on one trace.
type Answer struct {
	TraceID   string `parquet:"trace_id" doc:"the graded trace"`
	Extracted string `parquet:"extracted" doc:"the final answer found in the trace (empty when none)"`
	HasAnswer bool   `parquet:"has_answer" doc:"an answer was found"`
	Correct   bool   `parquet:"correct" doc:"the extracted answer equals the gold answer"`
	Gold      string `parquet:"gold" doc:"the gold answer it was compared with"`
	Reason    string `parquet:"reason" doc:"how the answer matched or why not: string-match, exact, numeric, symbolic, structural, choice, mismatch, mismatch-unparsed, mismatch-undecided (a value the grader cannot decide, such as a pole or an overflow it cannot bound), no-answer"`
	FoundIn   string `parquet:"found_in" doc:"where the answer was found; multilingual: after-think or in-think, then boxed, marker, last-math or last-number; math-verify: the extraction target (boxed, latex, latex-final-answer, expr, number, ...); none"`
	Grader    string `parquet:"grader" doc:"grader name and version"`
	TextHash  string `parquet:"text_hash" doc:"text_hash of the trace as graded; a trace whose text changed since is ungraded"`
}

// Verdict is one grader's decision on one trace. datg verify grades every
// trace with every grader, so their verdicts can be compared; answers holds
// the verdicts of the grader the run chose.
type Verdict struct {
	TraceID   string `parquet:"trace_id" doc:"the graded trace"`
	Grader    string `parquet:"grader" doc:"math-verify or multilingual"`
	Extracted string `parquet:"extracted" doc:"the final answer the grader found (empty when none)"`
	HasAnswer bool   `parquet:"has_answer" doc:"an answer was found"`
	Correct   bool   `parquet:"correct" doc:"the grader judged the answer equal to the gold"`
	Reason    string `parquet:"reason" doc:"the grader's reason (gold-unparsed when the gold gave it nothing to compare)"`
	FoundIn   string `parquet:"found_in" doc:"where the grader found the answer"`
	TextHash  string `parquet:"text_hash" doc:"text_hash of the trace as graded"`
}

// Compliance is the reasoning-language check of one trace.
type Compliance struct {
	TraceID   string `parquet:"trace_id" doc:"the checked trace"`
	Requested string `parquet:"requested" doc:"the requested reasoning language"`
	Detected  string `parquet:"detected" doc:"the detected languages, most probable first, comma-separated: langdetect's detect_langs list (probability above 0.1; its codes, zh-cn and zh-tw for Chinese), or lingua's languages holding 10% of the letters or more; empty when none could be told"`
	Compliant bool   `parquet:"compliant" doc:"one language was detected and it is the requested one (ms and id accept each other; zh is zh-cn for langdetect)"`
	Status    string `parquet:"status" doc:"ok (one language), mixed (several languages), empty (nothing but math: no text to detect), undecided (langdetect: no language above 0.1) or too-short (lingua: length under 40)"`
	Chars     int32  `parquet:"chars" doc:"letters of the reasoning left after the prefix, the answer and math spans were removed (int32: a stored text is under 2^31 bytes, a Parquet page's limit)"`
	Shares    string `parquet:"shares" doc:"each detected language's probability (langdetect, e.g. sw:0.9999) or share of the checked letters (lingua, e.g. sw:0.92,en:0.08)"`
	Detector  string `parquet:"detector" doc:"the detector that decided, by its bare name: langdetect (the default and the paper's) or lingua. Before v0.3.0 it also held the settings (langdetect: langdetect 1.0.9 ...); datg's views read such rows as the name, with the rest in settings"`
	TextHash  string `parquet:"text_hash" doc:"text_hash of the trace as checked; a trace whose text changed since is unchecked"`
	Settings  string `parquet:"settings" since:"v0.3.0" doc:"the detector's version and settings, as in detections.settings"`
	Length    *int32 `parquet:"length,optional" since:"v0.3.0" doc:"the checked text's length in letters of an English-like alphabet, what lingua's too-short rule measures: a letter or combining mark 1, a Hangul syllable its 2 or 3 jamo, a kana 2, a Han character 3 (so the same content measures about the same in every script; chars undercounts Chinese about threefold); null in rows written before v0.3.0"`
}

// Detection is one language detector's decision on one trace: datg
// langcheck runs every detector, so the two can be compared.
type Detection struct {
	TraceID   string `parquet:"trace_id" doc:"the checked trace"`
	Detector  string `parquet:"detector" doc:"langdetect (the paper's rule) or lingua (datg's segment detector)"`
	Requested string `parquet:"requested" doc:"the requested reasoning language"`
	Detected  string `parquet:"detected" doc:"the detected languages, most probable first, comma-separated, in the detector's codes; empty when none"`
	Compliant bool   `parquet:"compliant" doc:"the detector's decision under its rule, as in compliance"`
	Status    string `parquet:"status" doc:"ok, mixed, empty, undecided or too-short, as in compliance"`
	Shares    string `parquet:"shares" doc:"each detected language's probability (langdetect) or share of the letters (lingua)"`
	Settings  string `parquet:"settings" doc:"the detector's version and settings"`
	TextHash  string `parquet:"text_hash" doc:"text_hash of the trace as checked"`
}

// Reference is one attempt at an English reference derivation.
type Reference struct {
	ProblemID        string `parquet:"problem_id" doc:"the problem"`
	Attempt          int32  `parquet:"attempt" doc:"0-based attempt (sample index) for the problem (below --max-attempts, at most 1000)"`
	Accepted         bool   `parquet:"accepted" doc:"the grader accepted the final answer"`
	RefIndex         int32  `parquet:"ref_index" doc:"0-based index among the problem's accepted references, below --per-problem (-1 when rejected)"`
	TraceID          string `parquet:"trace_id" doc:"the reference's row in traces (method reference; empty when rejected)"`
	Model            string `parquet:"model" doc:"model that wrote the derivation"`
	Reasoning        string `parquet:"reasoning" blob:"true" doc:"the reasoning, when the server returned it apart"`
	Response         string `parquet:"response" blob:"true" doc:"the response (the derivation, or the answer after the reasoning)"`
	Extracted        string `parquet:"extracted" doc:"the final answer the grader found"`
	Reason           string `parquet:"reason" doc:"the grader's reason"`
	FinishReason     string `parquet:"finish_reason" doc:"stop or length"`
	PromptTokens     int64  `parquet:"prompt_tokens" doc:"prompt tokens of the call"`
	CompletionTokens int64  `parquet:"completion_tokens" doc:"completion tokens of the call"`
	RequestKey       string `parquet:"request_key" doc:"content hash of the LLM request"`
	PromptSet        string `parquet:"prompt_set" since:"v0.2.0" doc:"SHA-256 of the prompt set the request was rendered from (datg prompts export; --prompts DIR): the builtin set's hash unless --prompts was given; empty for rows written before v0.2.0"`
	Derivation       string `parquet:"derivation" since:"v0.2.0" doc:"what of the reply is the derivation (--derivation): reasoning (the model's chain of thought, then its answer: the DAG builder reads the reasoning, with the answer as the final response) or answer (the answer alone); empty for rows written before v0.2.0, read as reasoning"`
	Grader           string `parquet:"grader" since:"v0.2.0" doc:"the grader that decided accepted: math-verify (the paper's answer-verification protocol, on the reference trace's text); empty for rows written before v0.2.0, which datg's multilingual grader decided"`
}

// DAG is one reference DAG of a problem.
type DAG struct {
	DagID            string `parquet:"dag_id" doc:"{problem_id}/r{ref_index}"`
	ProblemID        string `parquet:"problem_id" doc:"the problem the reference solves"`
	RefIndex         int32  `parquet:"ref_index" doc:"which of the problem's reference derivations (0-based, at most 1000)"`
	FinalNodeID      string `parquet:"final_node_id" doc:"the terminal answer node"`
	Valid            bool   `parquet:"valid" doc:"the DAG passed validation"`
	Reason           string `parquet:"reason" doc:"why the DAG is invalid (empty when valid)"`
	Raw              string `parquet:"raw" blob:"true" doc:"the DAG JSON as the model or the import gave it (the repaired reply when a repair was asked)"`
	Builder          string `parquet:"builder" doc:"model name, symbolic, or import:<file>"`
	Repaired         bool   `parquet:"repaired" doc:"the DAG is the reply to a repair request (the first reply failed validation); a repair that failed leaves it false and says so in reason"`
	Nodes            int32  `parquet:"n_nodes" doc:"nodes in the DAG (at most 200: a larger DAG is invalid and keeps no nodes)"`
	EdgeCount        int32  `parquet:"n_edges" doc:"edges in the DAG (at most 1,000, likewise)"`
	PromptTokens     int64  `parquet:"prompt_tokens" doc:"prompt tokens of the calls (repair included)"`
	CompletionTokens int64  `parquet:"completion_tokens" doc:"completion tokens of the calls (repair included)"`
	ContentHash      string `parquet:"content_hash" since:"v0.2.0" doc:"SHA-256 prefix of the DAG as the nodes and edges tables hold it; alignments record it to tell when a DAG changed"`
	PromptSet        string `parquet:"prompt_set" since:"v0.2.0" doc:"SHA-256 of the prompt set the request was rendered from (datg prompts export; --prompts DIR): the builtin set's hash unless --prompts was given; empty for symbolic and imported DAGs"`
}

// Node is one anchor of a reference DAG.
type Node struct {
	DagID       string `parquet:"dag_id" doc:"the DAG"`
	NodeID      string `parquet:"node_id" doc:"node id, unique within the DAG"`
	Position    int32  `parquet:"position" doc:"0-based position of the node in the DAG's node list (below 200, the node cap)"`
	Anchor      string `parquet:"anchor" doc:"compact mathematical content of the node"`
	Description string `parquet:"description" doc:"short English gloss (not matched against traces)"`
	Final       bool   `parquet:"final" doc:"this is the DAG's final (answer) node"`
}

// Edge is one dependency of a reference DAG.
type Edge struct {
	DagID    string `parquet:"dag_id" doc:"the DAG"`
	ParentID string `parquet:"parent_id" doc:"prerequisite node"`
	ChildID  string `parquet:"child_id" doc:"dependent node"`
}

// Alignment is one closed-set alignment of a trace to a DAG.
type Alignment struct {
	TraceID          string    `parquet:"trace_id" doc:"the aligned trace"`
	DagID            string    `parquet:"dag_id" doc:"the reference DAG"`
	Aligner          string    `parquet:"aligner" doc:"model name, symbolic, or import:<file>"`
	Status           string    `parquet:"status" doc:"ok, or invalid-json when the reply held no usable alignment (then it has no events)"`
	Raw              string    `parquet:"raw" blob:"true" doc:"the alignment JSON as returned"`
	Events           int32     `parquet:"n_events" doc:"node events kept (int32, as the other counts here: each is some bytes of one reply)"`
	Actions          int32     `parquet:"n_actions" doc:"harmful actions kept"`
	Problems         int32     `parquet:"n_problems" doc:"alignment errors (unknown nodes, bad statuses, capped span searches: its alignment_errors rows)"`
	Unlocated        int32     `parquet:"n_unlocated" doc:"node events whose span was not located in the trace (not found, or its search capped)"`
	PromptTokens     int64     `parquet:"prompt_tokens" doc:"prompt tokens of the call (with the retry's, when the first reply held no alignment)"`
	CompletionTokens int64     `parquet:"completion_tokens" doc:"completion tokens of the call (with the retry's)"`
	RequestKey       string    `parquet:"request_key" doc:"content hash of the LLM request (empty for symbolic and imported)"`
	TextHash         string    `parquet:"text_hash" doc:"text_hash of the trace as aligned"`
	DagHash          string    `parquet:"dag_hash" since:"v0.2.0" doc:"content_hash of the DAG as aligned; an alignment of a DAG that changed since is stale"`
	PromptSet        string    `parquet:"prompt_set" since:"v0.2.0" doc:"SHA-256 of the prompt set the request was rendered from (datg prompts export; --prompts DIR): the builtin set's hash unless --prompts was given; empty for symbolic and imported alignments"`
	CreatedAt        time.Time `parquet:"created_at,timestamp(millisecond)" doc:"when the alignment was made or imported"`
}

// AlignmentEvent is one piece of evidence the aligner tied to a DAG node.
type AlignmentEvent struct {
	TraceID        string   `parquet:"trace_id" doc:"the aligned trace"`
	DagID          string   `parquet:"dag_id" doc:"the reference DAG"`
	Aligner        string   `parquet:"aligner" doc:"who aligned (see alignments)"`
	NodeID         string   `parquet:"node_id" doc:"the node the evidence is about"`
	Seq            int32    `parquet:"seq" doc:"0-based order of the event within the node's list (bounded by the reply)"`
	Status         string   `parquet:"status" doc:"COMMIT, ATTEMPT or ERROR"`
	Evidence       string   `parquet:"evidence" doc:"the aligner's short quote"`
	EvidenceSpan   string   `parquet:"evidence_span" doc:"the quoted trace text"`
	StartChar      *int32   `parquet:"start_char,optional" doc:"character offset of the located span in the trace text (null when not located; int32: a stored text is under 2^31 bytes)"`
	EndChar        *int32   `parquet:"end_char,optional" doc:"end offset (exclusive) of the located span"`
	CommitProgress *float64 `parquet:"commit_progress,optional" doc:"start_char / the trace's length in characters"`
	BlockID        *int32   `parquet:"block_id,optional" doc:"0-based paragraph (blocks split on blank lines) holding the span"`
	Match          string   `parquet:"match" doc:"how the span was located: exact, normalized, fuzzy or none"`
}

// HarmfulAction is one harmful step the aligner reported.
type HarmfulAction struct {
	TraceID      string `parquet:"trace_id" doc:"the aligned trace"`
	DagID        string `parquet:"dag_id" doc:"the reference DAG"`
	Aligner      string `parquet:"aligner" doc:"who aligned (see alignments)"`
	Category     string `parquet:"category" doc:"contradictory, harmful_loop or degenerate (the list it came in)"`
	Seq          int32  `parquet:"seq" doc:"0-based order within its list (bounded by the reply)"`
	Label        string `parquet:"label" doc:"the category the aligner gave the item, if any"`
	Evidence     string `parquet:"evidence" doc:"the aligner's short quote"`
	EvidenceSpan string `parquet:"evidence_span" doc:"the quoted trace text"`
	StartChar    *int32 `parquet:"start_char,optional" doc:"character offset of the located span (null when not located; int32: a stored text is under 2^31 bytes)"`
	EndChar      *int32 `parquet:"end_char,optional" doc:"end offset (exclusive) of the located span"`
	// HAR judges an action that is also a node event once, as that event.
	MatchedNode string `parquet:"matched_node" since:"v0.2.0" doc:"the node of the event this action is matched to (same quote or overlapping located range, one to one); empty when none"`
	MatchedSeq  *int32 `parquet:"matched_seq,optional" since:"v0.2.0" doc:"seq of that event within its node (null when the action matches no event: it is then judgeable on its own)"`
}

// AlignmentError is something wrong in an alignment, kept rather than dropped.
type AlignmentError struct {
	TraceID string `parquet:"trace_id" doc:"the aligned trace"`
	DagID   string `parquet:"dag_id" doc:"the reference DAG"`
	Aligner string `parquet:"aligner" doc:"who aligned"`
	Seq     int32  `parquet:"seq" doc:"0-based order of the problem within the alignment (bounded by the reply)"`
	Kind    string `parquet:"kind" doc:"unknown-node, bad-status, missing-status, too-many-actions (a harmful action past its list's cap: 2 contradictory, 2 harmful-loop, 1 degenerate), invalid-json, or locate-capped (an evidence span left unlocated because a cap of the span search stopped it: longer than 1,000 characters and not found exactly or normalized, or the alignment's locating budget spent; the detail says which), or budget-spent-reasoning (a reply without a usable alignment because the aligner spent its token budget reasoning, also when asked again with a larger one; the detail gives the tokens)"`
	Detail  string `parquet:"detail" doc:"what was wrong"`
}

// Score is the DATG metrics of one (trace, DAG) alignment.
type Score struct {
	TraceID   string   `parquet:"trace_id" doc:"the trace"`
	DagID     string   `parquet:"dag_id" doc:"the reference DAG"`
	Aligner   string   `parquet:"aligner" doc:"who aligned"`
	RefIndex  int32    `parquet:"ref_index" doc:"the DAG's reference index"`
	CAR       float64  `parquet:"car" doc:"committed anchor recall: committed nodes / nodes"`
	PMF       *float64 `parquet:"pmf,optional" doc:"path monotonic fidelity: ordered edges / edges (null for a DAG without edges)"`
	HAR       float64  `parquet:"har" doc:"harmful action rate: harmful / max(1, judgeable)"`
	Best      bool     `parquet:"best" doc:"the trace's best DAG for this aligner: highest CAR, then PMF, then lowest HAR, then lowest ref_index"`
	NodeCount int32    `parquet:"n_nodes" doc:"nodes of the DAG (int32, as the other counts here: bounded by the DAG caps and the alignment's reply)"`
	Committed int32    `parquet:"n_commit" doc:"nodes with a COMMIT event"`
	EdgeCount int32    `parquet:"n_edges" doc:"edges of the DAG"`
	Ordered   int32    `parquet:"n_ordered" doc:"ordered edges"`
	Harmful   int32    `parquet:"n_harmful" doc:"harmful actions scored (within the caps: 2 contradictory, 2 harmful-loop, 1 degenerate)"`
	Judgeable int32    `parquet:"n_judgeable" doc:"node events plus harmful actions matched to no event (harmful_actions.matched_seq null)"`
	// What the score was computed from: datg tables refuses a score whose
	// alignment, trace text or DAG has changed since.
	TextHash      string `parquet:"text_hash" since:"v0.2.0" doc:"text_hash of the trace the alignment was made on"`
	DagHash       string `parquet:"dag_hash" since:"v0.2.0" doc:"dag_hash of the alignment: the DAG's content_hash when it was aligned"`
	AlignmentHash string `parquet:"alignment_hash" since:"v0.2.0" doc:"MD5 of the alignment's raw reply as scored; a re-made alignment has another"`
}

// Trial is one generation attempt of a controlled run.
type Trial struct {
	TraceID           string    `parquet:"trace_id" doc:"the final trace of the controlled run (a row of traces)"`
	Method            string    `parquet:"method" doc:"control-base, loop-retry or formula-retry"`
	Model             string    `parquet:"model" doc:"model name as served"`
	ReasoningLang     string    `parquet:"reasoning_lang" doc:"requested language of the reasoning"`
	Level             string    `parquet:"level" doc:"problem level"`
	ProblemID         string    `parquet:"problem_id" doc:"problem id, {level}-{k}"`
	Seed              int64     `parquet:"seed" doc:"the run's seed (42, 215 or 316 in the paper)"`
	Phase             string    `parquet:"phase" doc:"scaffold (formula-retry's phase 1, trial 0) or reasoning"`
	Trial             int32     `parquet:"trial" doc:"1-based attempt number of the reasoning, at most --max-trials (100 at most); 0 for the scaffold"`
	SampleSeed        int64     `parquet:"sample_seed" doc:"the seed this attempt sampled with (a new one for each retry)"`
	Temperature       float64   `parquet:"temperature" doc:"sampling temperature of the attempt"`
	RepetitionPenalty float64   `parquet:"repetition_penalty" doc:"vLLM repetition_penalty of the attempt (1.08 first, 1.13 on retries)"`
	CompletionTokens  int64     `parquet:"completion_tokens" doc:"tokens decoded by this attempt as the server counted them, aborted continuations included"`
	CheckpointTokens  int64     `parquet:"checkpoint_tokens" doc:"tokens decoded up to the checkpoint (all of them when the attempt ended before it)"`
	Checkpoint        int64     `parquet:"checkpoint" doc:"the checkpoint C = B/4 in tokens (0 for the scaffold and for Base, which has none)"`
	Checked           bool      `parquet:"checked" doc:"the attempt reached the checkpoint and the detector ran"`
	Rep16             *float64  `parquet:"rep16,optional" doc:"repeated 16-gram rate of the last 256 tokens at the checkpoint (null when not checked)"`
	Rep32             *float64  `parquet:"rep32,optional" doc:"repeated 32-gram rate at the checkpoint"`
	TTR256            *float64  `parquet:"ttr256,optional" doc:"type-token ratio of the last 256 tokens at the checkpoint"`
	Motif             int32     `parquet:"motif" doc:"length of the repeating suffix unit at the checkpoint, 0 when none (at most the detector's longest unit, 32 tokens)"`
	SurfaceLoop       bool      `parquet:"surface_loop" doc:"the statistics said loop"`
	MathProgress      bool      `parquet:"math_progress" doc:"the last 1,600 characters held math the prefix had not"`
	Trigger           bool      `parquet:"trigger" doc:"the detector fired (surface loop, no progress, no boxed answer, not short)"`
	Aborted           bool      `parquet:"aborted" doc:"the attempt was stopped at the checkpoint and resampled"`
	ForcedAccept      bool      `parquet:"forced_accept" doc:"the last attempt triggered and was accepted anyway (unhealthy)"`
	Accepted          bool      `parquet:"accepted" doc:"this attempt (or, for the scaffold, phase 1) is in the final trace"`
	AbortReason       string    `parquet:"abort_reason" doc:"the detector's reason when it fired (empty when it did not)"`
	Removed           []string  `parquet:"removed,list" doc:"what sanitizing the scaffold took out, as kind: text (scaffold only)"`
	FinishReason      string    `parquet:"finish_reason" doc:"stop or length, of the attempt's last request"`
	Text              string    `parquet:"text" blob:"true" doc:"the attempt's decoded text (for the scaffold, as the model wrote it, before sanitizing)"`
	Endpoint          string    `parquet:"endpoint" doc:"base URL of the server that answered the attempt's last request"`
	CreatedAt         time.Time `parquet:"created_at,timestamp(millisecond)" doc:"when the attempt's last response was received"`
}

// Annotation is one human judgment of the DATG audit (paper, appendix
// "Human Evaluation of DATG"), imported with datg import annotations.
type Annotation struct {
	TraceID   string   `parquet:"trace_id" doc:"the audited trace"`
	DagID     string   `parquet:"dag_id" doc:"the reference DAG it was audited against"`
	Annotator string   `parquet:"annotator" doc:"who judged"`
	Layer     string   `parquet:"layer" doc:"node (DAG node validity), edge (DAG edge validity), status (the node's status in the human alignment), harmful (an automatic harmful-action candidate confirmed or not), car or pmf (scores of the human alignment typed in; the scores computed from the statuses win when the statuses are complete)"`
	Item      string   `parquet:"item" doc:"node id, the edge as parent>child (each > or backslash inside an id preceded by a backslash), or the candidate's quote (its evidence_span, or its evidence when it has none, as the paper's degenerate_steps); empty for car and pmf"`
	Label     string   `parquet:"label" doc:"valid/invalid, COMMIT/ATTEMPT/ERROR/MISSING, harmful/not-harmful; empty for car and pmf"`
	Value     *float64 `parquet:"value,optional" doc:"the score, for car and pmf (null pmf: a DAG without edges)"`
	Source    string   `parquet:"source" doc:"the file it was imported from"`
	// Where the human alignment's evidence lies in the trace, located by the
	// code that locates an aligner's spans, so the human statuses are scored
	// by the SQL that scores alignments (commit positions for PMF, one-to-one
	// matching of harmful actions and events for HAR).
	EvidenceSpan string `parquet:"evidence_span" since:"v0.2.0" doc:"status: the trace text the annotator quotes for the node (empty when none); harmful: the candidate's quote (as item)"`
	StartChar    *int32 `parquet:"start_char,optional" since:"v0.2.0" doc:"status and harmful: character offset of the located span in the trace (null when not located or not given)"`
	EndChar      *int32 `parquet:"end_char,optional" since:"v0.2.0" doc:"end offset (exclusive) of the located span"`
	BlockID      *int32 `parquet:"block_id,optional" since:"v0.2.0" doc:"0-based paragraph (blocks split on blank lines) holding the span's start"`
	MatchedNode  string `parquet:"matched_node" since:"v0.2.0" doc:"harmful rows the annotator confirmed: the node whose status event (COMMIT, ATTEMPT or ERROR) the action is matched to, one to one as for an aligner's; empty when none"`
}
