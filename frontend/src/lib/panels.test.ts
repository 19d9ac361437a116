import { describe, expect, it, vi } from 'vitest';
import { lazy } from './panels';

describe('lazy panels', () => {
  it('loads a panel once and keeps it', async () => {
    const load = vi.fn(async () => ({ default: 'Panel' }));
    const get = lazy(load);
    expect(await get()).toBe('Panel');
    expect(await get()).toBe('Panel');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('tries the file again after a failure', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue({ default: 'Panel' });
    const get = lazy(load);
    await expect(get()).rejects.toThrow('offline');
    expect(await get()).toBe('Panel');
    expect(load).toHaveBeenCalledTimes(2);
  });
});
