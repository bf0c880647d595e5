// Package prompts holds datg's own prompt templates, as data files embedded
// in the binary: languages.json gives, for each of the study's 12 languages,
// its resource group, the solver system message written in that language and
// the assistant-side direct-first prefix that opens the reasoning in it
// (paper, appendix A). Rendering the templates into a model's chat format is
// a pure function in transforms.
package prompts
