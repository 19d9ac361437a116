package app

import (
	"context"
	"fmt"
	"strings"
)

// SettingsService is the settings and the state of the whole app as the
// window and web mode call them (the Settings panel, the status bar, the
// network activity): one bound service of its own beside App.
//
//bindgen:bound
type SettingsService struct {
	core *Core
}

// GetSettings lists the settings with their effective values.
func (a *SettingsService) GetSettings() ([]Setting, error) {
	ctx := context.Background()
	items, err := a.core.settings.List(ctx)
	if err != nil {
		return nil, a.core.userErr(ctx, err)
	}
	out := make([]Setting, 0, len(items))
	for _, it := range items {
		out = append(out, Setting{Key: it.Key, Value: it.Value, Description: it.Description})
	}
	return out, nil
}

// gateSetting: from the web, ollama_allow_internet on (chats may go to an
// Ollama on the internet) and ollama_path (the program Hermes starts as
// Ollama) need a one-time code; turning the first off needs none.
func gateSetting(_ *Web, args []string) (guarded, bool) {
	if len(args) == 2 && args[0] == "ollama_allow_internet" {
		on := strings.ToLower(strings.TrimSpace(args[1]))
		if on != "true" && on != "on" && on != "yes" && on != "1" {
			return guarded{}, false // turning it off needs no code
		}
		return guarded{key: "SetSetting\x00ollama_allow_internet", fingerprint: "true",
			what: "let Hermes send your chats to an Ollama on the internet (ollama_allow_internet)"}, true
	}
	if len(args) != 2 || args[0] != "ollama_path" {
		return guarded{}, false
	}
	return guarded{key: "SetSetting\x00ollama_path", fingerprint: args[1],
		what: fmt.Sprintf("let Hermes start %q as Ollama", args[1])}, true
}

// SetSetting validates and stores one setting and returns them all.
func (a *SettingsService) SetSetting(key, value string) ([]Setting, error) {
	ctx := context.Background()
	if err := a.core.settings.Set(ctx, key, value); err != nil {
		return nil, a.core.userErr(ctx, err)
	}
	return a.GetSettings()
}
