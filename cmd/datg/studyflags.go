package main

import (
	"flag"

	"github.com/datg/datg/pipelines/generate"
)

// studyFlags are the flags that scope and override a study (generate and
// control).
type studyFlags struct {
	config                            *string
	models, directions, langs, levels listFlag
	seeds                             intListFlag
	limit                             *int
}

func addStudyFlags(fs *flag.FlagSet, configDoc string) *studyFlags {
	f := &studyFlags{
		config: fs.String("config", "", configDoc),
		limit:  fs.Int("limit", 0, "keep the first N problems of each level (0: all)"),
	}
	fs.Var(&f.models, "models", "models to sample, as the servers name them")
	fs.Var(&f.directions, "directions", "directions: en-en, en-x, x-en, x-x")
	fs.Var(&f.langs, "langs", "languages (x ranges over the non-English ones)")
	fs.Var(&f.levels, "levels", "levels: low, medium, high, top")
	fs.Var(&f.seeds, "seeds", "sampling seeds")
	return f
}

// study is base, or the --config file, with the flags given applied, and
// the LLM flags' --api and --slots when set. With keepScope, a --config file
// gives only budgets, sampling, api and slots: which examples to run
// (models, directions, languages, levels, seeds, limit) stays base's.
func (f *studyFlags) study(fs *flag.FlagSet, base generate.Study, llm *llmFlags, keepScope bool) (generate.Study, error) {
	study := base
	if *f.config != "" {
		var err error
		if study, err = generate.LoadStudy(*f.config); err != nil {
			return study, err
		}
		if keepScope {
			study.Models, study.Directions, study.Langs = base.Models, base.Directions, base.Langs
			study.Levels, study.Seeds, study.Limit = base.Levels, base.Seeds, base.Limit
		}
	}
	if f.models != nil {
		study.Models = f.models
	}
	if f.directions != nil {
		study.Directions = f.directions
	}
	if f.langs != nil {
		study.Langs = f.langs
	}
	if f.levels != nil {
		study.Levels = f.levels
	}
	if f.seeds != nil {
		study.Seeds = f.seeds
	}
	if flagWasSet(fs, "limit") {
		study.Limit = *f.limit
	}
	if *llm.api != "" {
		study.API = *llm.api
	}
	if flagWasSet(fs, "slots") {
		study.SlotsPerEndpoint = *llm.slots
	}
	return study, nil
}

// generation is base with the flags applied: the study (see study), the
// servers and pool of the LLM flags, the prompt set, and data and
// keepGoing, the values of --data and --keep-going. The pool's slots are
// the study's (generate.Config.Pool).
func (f *studyFlags) generation(fs *flag.FlagSet, base generate.Config, data string, keepGoing bool, llm *llmFlags, keepScope bool) (generate.Config, error) {
	cfg := base
	var err error
	if cfg.Study, err = f.study(fs, base.Study, llm, keepScope); err != nil {
		return cfg, err
	}
	if cfg.Prompts, err = llm.promptSet(); err != nil {
		return cfg, err
	}
	cfg.Data, cfg.KeepGoing, cfg.Stderr = data, keepGoing, stderr
	cfg.Endpoints, cfg.APIKey, cfg.Pool = llm.endpoints, llm.apiKey(), llm.options()
	return cfg, nil
}

// generationFieldFlags are the flags that set the fields of a
// generate.Config held under parent ("" for generate's own, "Generation."
// for control's), as its errors name them (inputerr.FieldError).
func generationFieldFlags(parent string) map[string]string {
	flags := map[string]string{}
	for field, flag := range map[string]string{
		"Data": "data", "Endpoints": "endpoints", "KeepGoing": "keep-going",
		"Study.Models": "models", "Study.Directions": "directions", "Study.Langs": "langs", "Study.Levels": "levels",
		"Study.Seeds": "seeds", "Study.Limit": "limit", "Study.API": "api", "Study.SlotsPerEndpoint": "slots",
	} {
		flags[parent+field] = flag
	}
	return flags
}
