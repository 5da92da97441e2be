// Where keyboard focus goes when what had it changes (issue 19 item 1): focus never falls to <body>.
// `focusElement` focuses an element, making a landing that is not a control (a row, a heading, a
// section) focusable by script only; `focusSoon` does so once React has committed and the browser has
// laid out. `watchFocusLoss` is the safety net under every screen: when the focused element is taken
// out of the page (a button replaced by its confirmation, a row's actions gone once it changed), focus
// goes to the nearest landing around where it was (the row, the panel, the section) instead.

const CONTROLS = 'button, input, select, textarea, a[href], [tabindex]';

/** Elements focus may fall back to: rows, panels, named sections and forms, dialogs, the main region. */
export const LANDINGS =
  '[data-focus-landing], tr[aria-label], tr[data-retirement-id], [role="row"], [role="tab"], aside[aria-label], section[aria-label], form[aria-label], dialog, main';

export function focusElement(el: Element | null | undefined): boolean {
  if (!(el instanceof HTMLElement) || !el.isConnected) return false;
  if (!el.matches(CONTROLS)) el.tabIndex = -1;
  el.focus();
  return document.activeElement === el;
}

/**
 * Focuses what `pick` returns on the next frame (after React's commit and layout), trying a few frames
 * more while it returns nothing (a list drawing its rows); then `fallback`, if given.
 */
export function focusSoon(pick: () => Element | null | undefined, fallback?: () => Element | null | undefined, frames = 30): void {
  requestAnimationFrame(() => {
    const target = pick();
    if (target) focusElement(target);
    else if (frames > 0) focusSoon(pick, fallback, frames - 1);
    else focusElement(fallback?.());
  });
}

/**
 * A form refused on submit: focus its first invalid field (once the errors are drawn) and say what
 * is wrong through the announcer's `say`, passed in (lib does not import components).
 */
export function reportFormProblems(form: HTMLFormElement | null, problems: string[], say: (text: string) => void): void {
  if (problems.length === 0) return;
  focusSoon(() => form?.querySelector('[aria-invalid="true"]'));
  const count = problems.length === 1 ? '1 field needs' : `${problems.length} fields need`;
  // Said once the problems are drawn, in the order the form shows them, so what is heard first is
  // the field focus lands on and Tab goes on to the next one heard.
  requestAnimationFrame(() => say(`Not ready for review: ${count} attention. ${inShownOrder(form, problems).join(' ')}`));
}

/** `problems` in the order their texts appear in `form`; any not shown there (the form's own) last. */
function inShownOrder(form: HTMLFormElement | null, problems: string[]): string[] {
  const shown = [...(form?.querySelectorAll('.field-error') ?? [])].map((el) => el.textContent.trim());
  const at = (problem: string) => {
    const index = shown.indexOf(problem);
    return index < 0 ? shown.length : index;
  };
  return [...problems].sort((a, b) => at(a) - at(b));
}

/**
 * For a panel or page that closes (by its button, Escape, or a link): focus goes back to where it was
 * opened from once that is drawn (see focusSoon), unless focus has meanwhile gone somewhere on purpose
 * (another screen's heading): only from <body> or the main region, where the safety net leaves it.
 */
export function returnFocusSoon(pick: () => Element | null | undefined, fallback?: () => Element | null | undefined): void {
  const adrift = () => focusIsLost() || document.activeElement?.matches('main') === true;
  focusSoon(
    () => (adrift() ? pick() : document.activeElement),
    () => (adrift() ? fallback?.() : null),
  );
}

/** Whether nothing meaningful has focus (focus fell to <body>). */
export function focusIsLost(): boolean {
  return document.activeElement === null || document.activeElement === document.body;
}

/** Installs the safety net (once, by the app shell); returns how to remove it. */
export function watchFocusLoss(): () => void {
  let focused: Element | null = null;
  let landings: Element[] = [];
  const onFocusIn = (event: FocusEvent) => {
    if (!(event.target instanceof Element)) return;
    focused = event.target;
    landings = [];
    for (let el = event.target.parentElement?.closest(LANDINGS); el; el = el.parentElement?.closest(LANDINGS)) landings.push(el);
  };
  const recover = () => {
    if (!focused || !focusIsLost()) return;
    // Only when it was taken away (removed, or disabled under focus), not when the user clicked elsewhere.
    const gone = !focused.isConnected || (focused as HTMLButtonElement).disabled === true;
    if (!gone) return;
    const landing = landings.find((el) => el.isConnected && !el.closest('dialog:not([open])'));
    focused = null;
    focusElement(landing);
  };
  const onFocusOut = (event: FocusEvent) => {
    const left = event.target;
    // Still there and usable once the event is over: the user moved focus away (a click on nothing), so leave it be.
    setTimeout(() => {
      if (focused === left && left instanceof Element && left.isConnected && !(left as HTMLButtonElement).disabled && focusIsLost())
        focused = null;
    }, 0);
  };
  const observer = new MutationObserver(recover);
  observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled'] });
  document.addEventListener('focusin', onFocusIn);
  document.addEventListener('focusout', onFocusOut);
  return () => {
    document.removeEventListener('focusout', onFocusOut);
    observer.disconnect();
    document.removeEventListener('focusin', onFocusIn);
  };
}
