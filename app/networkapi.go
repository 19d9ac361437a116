package app

import "context"

// NetworkActivity lists the connections Hermes made or refused (the Activity
// panel's Network tab).
func (a *SettingsService) NetworkActivity() (NetworkActivity, error) {
	return a.core.NetworkActivity(context.Background())
}
