package prompts

// The input of each template: its fields are the variables the template may
// use ({{.Question}} ...). A template naming any other variable is refused
// when the set is loaded. The doc tags are what the README says about each
// variable (TestReadmePromptsAreCurrent keeps it so).
type (
	// ReferenceInput is the input of reference_user.tmpl.
	ReferenceInput struct {
		Question string `doc:"the problem statement, in English"`
	}
	// DAGInput is the input of dag_user.tmpl. The Target fields are the
	// size guidance of the DAG's level (datg dags --budget), the paper's
	// target_max_* placeholders: guidance for the model, never a limit the
	// reply is checked against.
	DAGInput struct {
		Derivation         string `doc:"the accepted reference derivation (its reasoning when the server returned it apart, else its response): the paper's {verified_reference_cot}"`
		Tail               string `doc:"the derivation's last 1,500 characters, where the answer is settled: the paper's {reasoning_trace_tail}"`
		Final              string `doc:"the derivation's final response (the answer part): the paper's {final_response}"`
		TargetMaxNodes     int    `doc:"about how many nodes to aim for (guidance, datg dags --budget): the paper's {target_max_nodes}"`
		TargetMaxDescChars int    `doc:"about how long a node description should be, in characters (guidance): the paper's {target_max_desc_chars_per_node}"`
		TargetMaxParents   int    `doc:"about how many parents a node should have at most (guidance): the paper's {target_max_pre_nodes_per_node}"`
	}
	// DAGRepairInput is the input of dag_repair.tmpl.
	DAGRepairInput struct {
		Error string `doc:"why the DAG the model returned is invalid (datg's validation message)"`
	}
	// AlignInput is the input of align_user.tmpl.
	AlignInput struct {
		Language string `doc:"the English name of the trace's requested reasoning language (languages.json's name)"`
		DAG      string `doc:"the reference DAG as JSON: {\"final_node_id\", \"nodes\": [{\"node_id\", \"anchor\", \"description\", \"parents\"}]}"`
		Trace    string `doc:"the whole trace text (<think>, the prefix, the reasoning, </think> and the answer)"`
	}
	// ScaffoldInput is the input of scaffold_system.tmpl.
	ScaffoldInput struct {
		Language string `doc:"the English name of the target language (languages.json's name)"`
	}
)
