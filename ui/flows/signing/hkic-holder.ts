/**
 * The HKIC a signer types on the page (an appointee, an AP or RSE), for the iAM Smart actor, which reads
 * it when the signing starts, outside React's render.
 */
export class HkicHolder {
  private value = '';
  set(value: string) {
    this.value = value;
  }
  get(): string {
    return this.value;
  }
}
