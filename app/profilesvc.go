package app

import (
	"context"

	"hermes/backend/memory"
)

// MemoryProfiles lists the memory profiles, the active one marked.
func (c *Core) MemoryProfiles(ctx context.Context) ([]MemoryProfile, error) {
	return withMemory(c, "list profiles", func(m *memory.Store) ([]MemoryProfile, error) { return m.ListProfiles(ctx) })
}

// CreateMemoryProfile makes an empty profile (it does not switch to it).
func (c *Core) CreateMemoryProfile(ctx context.Context, name string) error {
	_, err := withMemory(c, "create profile", func(m *memory.Store) (struct{}, error) {
		return struct{}{}, m.CreateProfile(ctx, name)
	})
	return err
}

// UseMemoryProfile makes a profile the one new conversations use.
func (c *Core) UseMemoryProfile(ctx context.Context, name string) error {
	_, err := withMemory(c, "use profile", func(m *memory.Store) (struct{}, error) {
		return struct{}{}, m.UseProfile(ctx, name)
	})
	return err
}

// DeleteMemoryProfile erases a profile and every memory in it.
func (c *Core) DeleteMemoryProfile(ctx context.Context, name string) (MemoryReceipt, error) {
	return withMemory(c, "delete profile", func(m *memory.Store) (MemoryReceipt, error) { return m.DeleteProfile(ctx, name) })
}

// RenameMemoryProfile renames a profile; its memories, conversations, index and
// the active mark follow.
func (c *Core) RenameMemoryProfile(ctx context.Context, old, name string) error {
	_, err := withMemory(c, "rename profile", func(m *memory.Store) (struct{}, error) {
		return struct{}{}, m.RenameProfile(ctx, old, name)
	})
	return err
}
