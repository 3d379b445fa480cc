import { useEffect, useRef, useState } from 'react';
import { Button, Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { idleSessionMachine } from '../../machines/flows/idle-session.machine';
import { isLoggedIn } from '../../machines/rules/session-state';
import { api } from '../api';
import { showToast } from '../feedback/stores';
import { clearLogin } from './auth';
import { readActivity, writeActivity } from './activity';
import { logout } from './logout';
import { inspectOptions } from '../flows/inspector';
import { useSession } from './store';

const ACTIVITY_EVENTS = ['click', 'keydown', 'mouseover', 'wheel'] as const;
/** Activity is written at most this often: mouse-over fires on every element crossed. */
const ACTIVITY_THROTTLE_MS = 1000;

/** Where the machine's `goHome` leads; the mounted tracker sets it (the router and messages live there). */
let onLoggedOut: () => void = () => window.location.assign('/');

const trackedMachine = idleSessionMachine.provide({
  actions: {
    requestCheck: ({ self }) =>
      self.send({ type: 'session.check', lastOperationTime: readActivity().time, now: Date.now() }),
    storeLastOperationTime: (_, params) => writeActivity({ time: params.time, isLogin: true }),
    clearLoginFlag: () => writeActivity({ time: readActivity().time, isLogin: false }),
    resetAuth: () => clearLogin(),
    goHome: () => onLoggedOut(),
  },
  actors: {
    extendSession: fromPromise(async () => {
      await api.post('auth/keepalive', undefined, { noLoading: true });
    }),
  },
});

/**
 * The idle session of spec §4 with the WCAG 2.2.1 warning: tracks activity while logged in, checks the
 * shared stored time every 5 s, warns 2 minutes before the end, and logs out when the time is up.
 */
export function IdleSession() {
  const loggedIn = useSession(isLoggedIn);
  return loggedIn ? <IdleTracker /> : null;
}

function IdleTracker() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [snapshot, send, actor] = useMachine(trackedMachine, inspectOptions());
  useEffect(() => {
    onLoggedOut = () => {
      showToast('info', t('idle.loggedOut'), 8000);
      void navigate('/');
    };
  }, [t, navigate]);

  // On load when logged in: the timeout from master data, then tracking starts (spec §4).
  useEffect(() => {
    let live = true;
    if (readActivity().time === null) writeActivity({ time: Date.now(), isLogin: true });
    void api
      .post<{ dataValue: string }[]>(
        'application/getmasterdata',
        { type: 'admin_setting', code: 'logout_idletime_frontend' },
        { noLoading: true, quiet: true },
      )
      .then(
        (answer) => answer.data[0]?.dataValue,
        () => undefined,
      )
      .then((minutes) => {
        if (live) actor.send({ type: 'session.start', timeoutMinutes: minutes ?? null });
      });
    return () => {
      live = false;
      actor.send({ type: 'session.stop' });
    };
  }, [actor]);

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
              <Button className="button" onPress={() => void logout(() => void navigate('/'))}>
                {t('idle.logout')}
              </Button>
            </div>
          </Dialog>
        </Modal>
      </ModalOverlay>
    </>
  );
}
