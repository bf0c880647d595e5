// Package prompts holds datg's prompt sets. The builtin set (Builtin) is
// datg's own wording, as data files embedded in the binary; Load reads a set
// of the same files from a directory (--prompts DIR), so a user can run
// other wording, such as the paper's, without editing code. languages.json
// gives, for each of the study's 12 languages (declared in package study,
// whose resource groups a set must repeat), the solver system message
// written in that language and the assistant-side direct-first prefix that
// opens the reasoning in it (paper, appendix A).
// Rendering the messages into a model's chat format is a pure function in
// transforms.
package prompts
