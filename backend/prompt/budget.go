package prompt

// MinBudget is the smallest prompt budget a turn is given, however small the
// context or large the reply reserve.
const MinBudget = 256

// ContextSize is the context to ask the model for: the size asked (a setting),
// or the model's own limit when that is smaller (0: the limit is unknown).
func ContextSize(asked, modelLimit int) int {
	if modelLimit > 0 && modelLimit < asked {
		return modelLimit
	}
	return asked
}

// Budget is how many prompt tokens fit a context of numCtx tokens when reserve
// tokens are kept for the reply (never under MinBudget).
func Budget(numCtx, reserve int) int {
	return max(numCtx-reserve, MinBudget)
}
