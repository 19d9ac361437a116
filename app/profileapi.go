package app

import (
	"context"

	"hermes/backend/memory"
)

// MemoryProfiles lists the memory profiles, the active one marked, with how
// many memories each holds.
func (a *MemoryService) MemoryProfiles() ([]memory.ProfileInfo, error) {
	list, err := a.core.MemoryProfiles(context.Background())
	if list == nil {
		list = []memory.ProfileInfo{}
	}
	return list, memErr(err)
}

// CreateMemoryProfile makes an empty profile (it does not switch to it).
func (a *MemoryService) CreateMemoryProfile(name string) error {
	return memErr(a.core.CreateMemoryProfile(context.Background(), name))
}

// UseMemoryProfile makes a profile the one new conversations recall from and
// remember into.
func (a *MemoryService) UseMemoryProfile(name string) error {
	return memErr(a.core.UseMemoryProfile(context.Background(), name))
}

// RenameMemoryProfile renames a profile; its memories, conversations, vector
// index and the active mark follow the new name.
func (a *MemoryService) RenameMemoryProfile(old, name string) error {
	return memErr(a.core.RenameMemoryProfile(context.Background(), old, name))
}

// DeleteMemoryProfile erases a profile and every memory in it, and returns
// the receipt.
func (a *MemoryService) DeleteMemoryProfile(name string) (memory.Receipt, error) {
	r, err := a.core.DeleteMemoryProfile(context.Background(), name)
	return r, memErr(err)
}
