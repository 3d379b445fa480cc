import { useEffect, useId, useRef, useState } from 'react';
import { EcertReady } from './EcertReady';
import { type Heading, type Send, type SigningWording, useSigningTranslation, Wording } from './signing-wording';
import { rememberReturnPath } from './iamsmart-return';
import { Button } from 'react-aria-components';
import { useSelector } from '@xstate/react';
import QRCode from 'qrcode';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import { screenOfSigning, type signingMachine } from '../../../machines/flows/signing.machine';
import { Icon } from '../../components/Icon';
import { Spinner } from '../../components/Spinner';
import './signing.css';
import type { SigningContext } from '../../../machines/flows/signing/types';

type SigningActor = ActorRefFrom<typeof signingMachine>;

const TIME_LOCALES: Record<string, string> = { en: 'en-HK', tc: 'zh-HK', sc: 'zh-CN' };

/** iAM Smart needs the signer's HKIC: when the form has none, say so and offer the way to the field. */
export interface HkicNeed {
  missing: boolean;
  onEnter: () => void;
  /**
   * Asked when iAM Smart is chosen, before the request starts: false keeps this screen (the page shows
   * why: its field's message and error summary).
   */
  check?: () => boolean;
}

/**
 * The signing step: renders a running signing actor (machines/flows/signing.machine.ts) screen by screen
 * and sends it the applicant's choices. It owns no state of the flow; the wizard (or a page) creates the
 * actor with `signingMachineForUi` and reads its output when it is done.
 */
export function SignStep({
  actor,
  hkic,
  wording = 'application',
}: {
  actor: SigningActor;
  hkic?: HkicNeed;
  wording?: SigningWording;
}) {
  return (
    <Wording.Provider value={wording}>
      <SigningScreen actor={actor} hkic={hkic} />
    </Wording.Provider>
  );
}

function SigningScreen({ actor, hkic }: { actor: SigningActor; hkic?: HkicNeed }) {
  const snapshot = useSelector(actor, (s) => s);
  const screen = screenOfSigning(snapshot);
  const heading = useRef<HTMLHeadingElement>(null);
  const shown = useRef(screen);
  const c = snapshot.context;
  const ecertErrorShown = screen === 'ecertReady' && (c.showFileError || c.ecertError !== null);

  // A new screen moves focus to its heading (not on the first, which the page's own heading introduces);
  // an e-Cert screen with an error gives focus to its error summary instead.
  useEffect(() => {
    if (shown.current === screen) return;
    shown.current = screen;
    if (!ecertErrorShown) heading.current?.focus();
  }, [screen, ecertErrorShown]);

  // On a phone, iAM Smart opens its app and comes back to /iamsmart: that page returns here.
  useEffect(() => {
    if (screen === 'pending') rememberReturnPath(window.location.pathname);
  }, [screen]);

  const send: Send = (event) => actor.send(event);
  switch (screen) {
    case 'choose':
      return <Choose send={send} heading={heading} hkic={hkic} />;
    case 'requesting':
    case 'cancelling':
    case 'preparing':
    case 'verifying':
      return <Busy screen={screen} heading={heading} />;
    case 'pending':
      return <Pending context={c} send={send} heading={heading} />;
    case 'ecertReady':
      return <EcertReady context={c} send={send} heading={heading} />;
    case 'failed':
      return <Failed context={c} send={send} heading={heading} hkic={hkic} />;
    case 'signed':
    case 'abandoned':
      return <Done snapshot={snapshot} heading={heading} />;
  }
}

function HkicNotice({ hkic, id }: { hkic?: HkicNeed; id?: string }) {
  const { t } = useSigningTranslation();
  if (!hkic?.missing) return null;
  return (
    <div className="notice signing__hkic" id={id}>
      <p>{t('choose.hkicNeeded')}</p>
      <Button className="button button--link" onPress={hkic.onEnter}>
        {t('choose.enterHkic')}
      </Button>
    </div>
  );
}

function Choose({ send, heading, hkic }: { send: Send; heading: Heading; hkic?: HkicNeed }) {
  const { t } = useSigningTranslation();
  const hkicNotice = useId();
  const iamSmartHint = useId();
  const ecertHint = useId();
  return (
    <section className="signing">
      <h2 ref={heading} tabIndex={-1}>
        {t('title')}
      </h2>
      <p>{t('choose.intro')}</p>
      <ul className="signing__methods">
        <li className="signing__method">
          <Button
            className="button signing__iamsmart"
            aria-describedby={hkic?.missing ? `${iamSmartHint} ${hkicNotice}` : iamSmartHint}
            onPress={() => {
              if (hkic?.check && !hkic.check()) return;
              send({ type: 'signing.iamsmart' });
            }}
          >
            {t('choose.iamsmart')}
          </Button>
          <p id={iamSmartHint} className="field__hint">
            {t('choose.iamsmartHint')}
          </p>
          <HkicNotice hkic={hkic} id={hkicNotice} />
          <a href={t('choose.moreInfoUrl')} target="_blank" rel="noopener noreferrer">
            {t('choose.moreInfo')}
            <span className="visually-hidden"> {t('choose.newTab')}</span>
            <Icon name="external" className="icon--external" />
          </a>
        </li>
        <li className="signing__method">
          <Button
            className="button button--primary"
            aria-describedby={ecertHint}
            onPress={() => send({ type: 'signing.ecert' })}
          >
            {t('choose.ecert')}
          </Button>
          <p id={ecertHint} className="field__hint">
            {t('choose.ecertHint')}
          </p>
        </li>
      </ul>
      <div className="form__actions">
        <Button className="button" onPress={() => send({ type: 'signing.back' })}>
          {t('choose.back')}
        </Button>
      </div>
    </section>
  );
}

function Busy({
  screen,
  heading,
}: {
  screen: 'requesting' | 'cancelling' | 'preparing' | 'verifying';
  heading: Heading;
}) {
  const { t } = useSigningTranslation();
  return (
    <section className="signing signing--busy">
      <h2 ref={heading} tabIndex={-1}>
        {t('title')}
      </h2>
      <p aria-hidden="true">{t(`busy.${screen}`)}</p>
      <Spinner label={t(`busy.${screen}`)} />
    </section>
  );
}

/** The QR code of `text` as an SVG image (no inline markup, no inline style: the CSP allows data: images). */
function QrImage({ text, alt }: { text: string; alt: string }) {
  const [image, setImage] = useState<{ text: string; src: string } | null>(null);
  useEffect(() => {
    let live = true;
    QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }).then(
      (svg) => {
        if (live) setImage({ text, src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` });
      },
      () => {
        if (live) setImage(null);
      },
    );
    return () => {
      live = false;
    };
  }, [text]);
  return image?.text === text ? (
    <img className="signing__qr" src={image.src} alt={alt} width={240} height={240} />
  ) : (
    <span className="signing__qr" role="img" aria-label={alt} />
  );
}

function Pending({ context: c, send, heading }: { context: SigningContext; send: Send; heading: Heading }) {
  const { t, i18n } = useSigningTranslation();
  const request = c.request;
  const time =
    c.expiresAt === null
      ? ''
      : new Intl.DateTimeFormat(TIME_LOCALES[i18n.language] ?? 'en-HK', {
          timeStyle: 'short',
          timeZone: 'Asia/Hong_Kong',
        }).format(c.expiresAt);
  return (
    <section className="signing">
      <h2 ref={heading} tabIndex={-1}>
        {t('pending.heading')}
      </h2>
      <p>{t('pending.scan')}</p>
      {request ? <QrImage text={request.qrText} alt={t('pending.qrAlt')} /> : null}
      <p className="signing__code">
        {t('pending.codeLabel')}{' '}
        <strong className="signing__code-value">{request?.identificationCode}</strong>
      </p>
      <p>{t('pending.codeCheck')}</p>
      {time ? <p className="field__hint">{t('pending.expires', { time })}</p> : null}
      <p className="signing__status" role="status" aria-live="polite">
        {t('pending.waiting')}
      </p>
      <div className="form__actions">
        <Button className="button" onPress={() => send({ type: 'signing.cancel' })}>
          {t('pending.cancel')}
        </Button>
      </div>
    </section>
  );
}

function Failed({
  context: c,
  send,
  heading,
  hkic,
}: {
  context: SigningContext;
  send: Send;
  heading: Heading;
  hkic?: HkicNeed;
}) {
  const { t } = useSigningTranslation();
  const error = c.error ?? 'failed';
  const message =
    error === 'failed' && c.errorMessage
      ? c.errorMessage
      : error === 'failed' && c.errorCode
        ? t('failed.failedCode', { code: c.errorCode })
        : t(`failed.${error}`);
  return (
    <section className="signing">
      <h2 ref={heading} tabIndex={-1}>
        {t('failed.heading')}
      </h2>
      <div className="notice signing__alert" role="alert">
        <p>{message}</p>
      </div>
      <HkicNotice hkic={hkic} />
      <div className="form__actions">
        <Button className="button button--primary" onPress={() => send({ type: 'signing.retry' })}>
          {t('failed.retry')}
        </Button>
        <Button className="button" onPress={() => send({ type: 'signing.other' })}>
          {t('failed.other')}
        </Button>
        <Button className="button" onPress={() => send({ type: 'signing.back' })}>
          {t('failed.back')}
        </Button>
      </div>
    </section>
  );
}

/** Final: the wizard moves on; until it does, say where the flow ended. */
function Done({ snapshot, heading }: { snapshot: SnapshotFrom<typeof signingMachine>; heading: Heading }) {
  const { t } = useSigningTranslation();
  return (
    <section className="signing">
      <h2 ref={heading} tabIndex={-1}>
        {t('title')}
      </h2>
      {snapshot.output ? (
        <p className="notice" role="status">
          {t('signed')}
        </p>
      ) : null}
    </section>
  );
}
