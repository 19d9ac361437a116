package memory

import (
	"os"
	"strconv"
	"strings"
)

// abStages are the stages of the evaluations' A/B runs, from the environment:
// AB_OFF=concepts,time,prf,rerank (or all) switches improvements off, AB_PRF=1
// turns pseudo-relevance feedback on, AB_THRESHOLD sets the rerank threshold.
// Without them, production's. Every store the tests open runs them.
func abStages() stages {
	st := productionStages()
	if v, err := strconv.ParseFloat(os.Getenv("AB_THRESHOLD"), 64); err == nil {
		st.threshold = v
	}
	if os.Getenv("AB_PRF") != "" {
		st.prf = true
	}
	for _, f := range strings.Split(os.Getenv("AB_OFF"), ",") {
		switch f {
		case "concepts":
			st.concepts = false
		case "time":
			st.time = false
		case "prf":
			st.prf = false
		case "rerank":
			st.rerank = false
		case "all":
			st.concepts, st.time, st.prf, st.rerank = false, false, false, false
		}
	}
	return st
}
