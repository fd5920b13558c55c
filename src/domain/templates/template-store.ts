export interface Template {
  readonly id: number;
  readonly accountId: number;
  readonly name: string;
  readonly body: string;
}

/** An account's message templates. */
export interface TemplateStore {
  createTemplate(input: {
    accountId: number;
    name: string;
    body: string;
    nowMs: number;
  }): Promise<Template>;
  findTemplate(id: number): Promise<Template | null>;
  /** The account's templates, by name. */
  listTemplates(accountId: number): Promise<Template[]>;
  updateTemplate(templateId: number, fields: { name: string; body: string }): Promise<Template>;
  deleteTemplate(templateId: number): Promise<void>;
}
