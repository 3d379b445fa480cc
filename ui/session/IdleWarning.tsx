import { useEffect, useRef, useState } from 'react';
import { Button, Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { useTranslation } from 'react-i18next';
import { idleSessionMachine } from '../../machines/flows/idle-session.machine';
import { inspectOptions } from '../flows/inspector';
import { readActivity, writeActivity } from './activity';

const ACTIVITY_EVENTS = ['click', 'keydown', 'mouseover', 'wheel'] as const;
/** Activity is written at most this often: mouse-over fires on every element crossed. */
const ACTIVITY_THROTTLE_MS = 1000;

/** What differs between the applicants' session and the staff's: where activity is kept, and the calls. */
export interface IdleSettings {
  /** The stored item of the last operation time (shared by the tabs of one kind of session). */
  storageKey: string;
  /** The idle timeout in minutes from master data (anything unusable gives the default). */
  loadTimeout: () => Promise<unknown>;
  /** "Stay signed in": tells the server. */
  extend: () => Promise<void>;
  /** After activity was stored (the console also tells the server, at most once a minute). */
  onActivity?: (now: number) => void;
  /** Forgets the session in this browser when the time is up. */
  resetAuth: () => void;
  /** Where the person goes when the time is up (with a message saying why). */
  onLoggedOut: () => void;
  /** The warning's "Log out" button. */
  logout: () => void;
}

/** The settings of the mounted tracker, read by the machine's actions when they run (outside render). */
class SettingsHolder {
  constructor(private current: IdleSettings) {}
  set(settings: IdleSettings) {
    this.current = settings;
  }
  get(): IdleSettings {
    return this.current;
  }
}

function trackedMachine(holder: SettingsHolder) {
  const key = () => holder.get().storageKey;
  return idleSessionMachine.provide({
    actions: {
      requestCheck: ({ self }) =>
        self.send({ type: 'session.check', lastOperationTime: readActivity(key()).time, now: Date.now() }),
      storeLastOperationTime: (_, params) => {
        writeActivity({ time: params.time, isLogin: true }, key());
        holder.get().onActivity?.(params.time);
      },
      clearLoginFlag: () => writeActivity({ time: readActivity(key()).time, isLogin: false }, key()),
      resetAuth: () => holder.get().resetAuth(),
      goHome: () => holder.get().onLoggedOut(),
    },
    actors: {
      extendSession: fromPromise(() => holder.get().extend()),
    },
  });
}

/**
 * The idle session of spec §4 with the WCAG 2.2.1 warning, for a signed-in person (an applicant, or an
 * officer in the console): tracks activity, checks the stored time every 5 s, warns 2 minutes before the
 * end with a countdown (announced at 120, 90, 60, 30 and 10 s), offers to stay signed in or to log out,
 * and logs out when the time is up (machines/flows/idle-session.machine.ts).
 */
export function IdleWarning({ settings }: { settings: IdleSettings }) {
  const { t } = useTranslation('auth');
  const [holder] = useState(() => new SettingsHolder(settings));
  useEffect(() => {
    holder.set(settings);
  }, [holder, settings]);
  const [machine] = useState(() => trackedMachine(holder));
  const [snapshot, send, actor] = useMachine(machine, inspectOptions());

  // On load: the timeout from master data, then tracking starts (spec §4).
  useEffect(() => {
    let live = true;
    const { storageKey } = holder.get();
    if (readActivity(storageKey).time === null)
      writeActivity({ time: Date.now(), isLogin: true }, storageKey);
    void holder
      .get()
      .loadTimeout()
      .catch(() => undefined)
      .then((minutes) => {
        if (live)
          actor.send({
            type: 'session.start',
            timeoutMinutes: typeof minutes === 'string' || typeof minutes === 'number' ? minutes : null,
          });
      });
    return () => {
      live = false;
      actor.send({ type: 'session.stop' });
    };
  }, [actor, holder]);

  const last = useRef(0);
  useEffect(() => {
    const onActivity = () => {
      const now = Date.now();
      if (now - last.current < ACTIVITY_THROTTLE_MS) return;
      last.current = now;
      actor.send({ type: 'session.activity', now });
    };
    for (const e of ACTIVITY_EVENTS)
      document.addEventListener(e, onActivity, { capture: true, passive: true });
    return () => {
      for (const e of ACTIVITY_EVENTS) document.removeEventListener(e, onActivity, { capture: true });
    };
  }, [actor]);

  const warning = snapshot.matches('warning') || snapshot.matches('staySignedIn');
  const { secondsLeft, announceAt } = snapshot.context;
  const time = t('idle.minutesSeconds', { minutes: Math.floor(secondsLeft / 60), seconds: secondsLeft % 60 });
  // Screen readers hear the countdown only when its coarse step changes (120, 90, 60, 30, 10 s).
  const [announcement, setAnnouncement] = useState('');
  useEffect(() => {
    const id = setTimeout(() => {
      if (!warning) return setAnnouncement('');
      const m = Math.floor(announceAt / 60);
      const s = announceAt % 60;
      setAnnouncement(t('idle.body', { time: t('idle.minutesSeconds', { minutes: m, seconds: s }) }));
    }, 0);
    return () => clearTimeout(id);
  }, [warning, announceAt, t]);

  return (
    <>
      <div className="visually-hidden" aria-live="polite">
        {announcement}
      </div>
      <ModalOverlay
        isOpen={warning}
        isDismissable={false}
        isKeyboardDismissDisabled
        className="modal-overlay"
      >
        <Modal className="modal">
          <Dialog role="alertdialog" aria-labelledby="idle-title" className="dialog">
            <Heading slot="title" id="idle-title" level={2}>
              {t('idle.title')}
            </Heading>
            <p>{t('idle.body', { time })}</p>
            <div className="form__actions">
              <Button
                className="button button--primary"
                isDisabled={snapshot.matches('staySignedIn')}
                onPress={() => send({ type: 'session.extend', now: Date.now() })}
              >
                {t('idle.stay')}
              </Button>
              <Button className="button" onPress={() => holder.get().logout()}>
                {t('idle.logout')}
              </Button>
            </div>
          </Dialog>
        </Modal>
      </ModalOverlay>
    </>
  );
}
