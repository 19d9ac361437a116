/**
 * The keyboard of a menu opened from a button (the ARIA menu-button pattern): the arrow keys,
 * Home and End move between its items, Escape closes it with the focus back on its button, and
 * Tab closes it with the focus moving on.
 */
export function menuKey(e: KeyboardEvent, items: HTMLElement[], close: (focusButton: boolean) => void): void {
  const i = items.indexOf(document.activeElement as HTMLElement);
  const move = (to: number) => {
    e.preventDefault();
    items[to]?.focus();
  };
  switch (e.key) {
    case 'Escape':
      e.preventDefault();
      e.stopPropagation();
      close(true);
      break;
    case 'ArrowDown':
      move((i + 1) % items.length);
      break;
    case 'ArrowUp':
      move((i - 1 + items.length) % items.length);
      break;
    case 'Home':
      move(0);
      break;
    case 'End':
      move(items.length - 1);
      break;
    case 'Tab':
      close(false);
  }
}
