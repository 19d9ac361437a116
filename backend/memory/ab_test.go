package memory

import (
	"os"
	"strconv"
	"strings"

	"hermes/backend/embed"
)

// AB_CRUDE=1 uses the old crude stemmer for lexical prefixes; AB_OFF=concepts,time,prf,rerank
// (or all) switches improvements off, AB_PRF=1 turns pseudo-relevance feedback on,
// AB_THRESHOLD sets the rerank threshold: the evaluations' A/B runs.
func init() {
	if os.Getenv("AB_CRUDE") != "" {
		stemFn = embed.Stem
	}
	if v, err := strconv.ParseFloat(os.Getenv("AB_THRESHOLD"), 64); err == nil {
		rerankThreshold = v
	}
	if os.Getenv("AB_PRF") != "" {
		rerankOn.prf = true
	}
	for _, f := range strings.Split(os.Getenv("AB_OFF"), ",") {
		switch f {
		case "concepts":
			rerankOn.concepts = false
		case "time":
			rerankOn.time = false
		case "prf":
			rerankOn.prf = false
		case "rerank":
			rerankOn.rerank = false
		case "all":
			rerankOn.concepts, rerankOn.time, rerankOn.prf, rerankOn.rerank = false, false, false, false
		}
	}
}
