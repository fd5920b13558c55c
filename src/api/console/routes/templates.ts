import type { FastifyPluginAsync } from 'fastify';
import type { Template } from '../../../domain/templates/template-store.js';
import { deleteTemplate, updateTemplate } from '../../../domain/templates/change-template.js';
import { createTemplate } from '../../../domain/templates/create-template.js';
import { findOwnTemplate } from '../../../domain/templates/find-own-template.js';
import { previewTemplate } from '../../../domain/templates/preview-template.js';
import { templateVariables } from '../../../domain/templates/template-variables.js';
import { type TemplateView } from '../contract/templates.js';
import type { ConsoleDeps } from '../console-deps.js';
import { consoleRoute } from '../console-route.js';
import { auditActor, consoleAccountId } from '../console-session.js';

const member = { access: { role: 'member' } } as const;
const tags = ['templates'];

/**
 * An account's message templates (members and owners): list, create, edit, delete, and the
 * preview the pages show while a body is written or filled (the send path's own rendering).
 */
export const templateRoutes: FastifyPluginAsync<ConsoleDeps> = async (app, { store, clock }) => {
  consoleRoute(
    app,
    'GET /templates',
    {
      tags,
      summary: "The account's templates with their placeholders, by name",
      config: member,
    },
    async (request) => ({
      data: (await store.listTemplates(consoleAccountId(request))).map(presentTemplate),
    }),
  );

  consoleRoute(
    app,
    'POST /templates',
    {
      tags,
      summary: 'Create a template',
      config: member,
    },
    async (request) => {
      const { template } = await createTemplate(store, {
        accountId: consoleAccountId(request),
        name: request.body.name,
        body: request.body.body,
        nowMs: clock.now(),
        actor: auditActor(request),
      });
      return presentTemplate(template);
    },
  );

  consoleRoute(
    app,
    'POST /templates/preview',
    {
      tags,
      summary: 'Fill a template body as send would, without saving or sending anything',
      description:
        'A placeholder without a value is shown as written and listed in `missing`; characters and parts are counted as charged.',
      config: member,
    },
    async (request) => previewTemplate(request.body.body, request.body.variables),
  );

  consoleRoute(
    app,
    'GET /templates/:templateId',
    {
      tags,
      summary: 'One template',
      config: member,
    },
    async (request) =>
      presentTemplate(
        await findOwnTemplate(store, consoleAccountId(request), request.params.templateId),
      ),
  );

  consoleRoute(
    app,
    'PUT /templates/:templateId',
    {
      tags,
      summary: 'Rewrite a template',
      description: 'Messages already accepted from it keep the text they were accepted with.',
      config: member,
    },
    async (request) =>
      presentTemplate(
        await updateTemplate(store, {
          accountId: consoleAccountId(request),
          templateId: request.params.templateId,
          name: request.body.name,
          body: request.body.body,
          nowMs: clock.now(),
          actor: auditActor(request),
        }),
      ),
  );

  consoleRoute(
    app,
    'DELETE /templates/:templateId',
    {
      tags,
      summary: 'Delete a template',
      config: member,
    },
    async (request) => {
      await deleteTemplate(store, {
        accountId: consoleAccountId(request),
        templateId: request.params.templateId,
        nowMs: clock.now(),
        actor: auditActor(request),
      });
      return { templateId: request.params.templateId };
    },
  );
};

function presentTemplate(template: Template): TemplateView {
  return {
    id: template.id,
    name: template.name,
    body: template.body,
    variables: templateVariables(template.body),
  };
}
