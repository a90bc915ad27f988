import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { HUB_ADMIN_SCOPE } from '../../../../domain/hub/hub.scopes.ts';
import { defineArea } from '../../shell/area.tsx';

/**
 * Notification hub: notifications and their messages' timelines with the operator actions, the
 * configuration (channels, delivery services, templates, context definitions, definitions with their
 * delivery rules and snapshots) and the customer policies (preferences, frequency caps, quiet hours).
 */
export const hubArea = defineArea(
  {
    id: 'hub',
    title: 'Notification hub',
    description:
      "Notifications and each message's timeline with retry, cancel and resolve; channels, delivery services, templates with a live preview, context definitions, definitions with their rules and snapshots; customer preferences, caps and quiet hours.",
    scopes: [HUB_ADMIN_SCOPE],
    nav: [
      { to: '/hub/notifications', label: 'Notifications' },
      { to: '/hub/channels', label: 'Channels' },
      { to: '/hub/delivery-services', label: 'Delivery services' },
      { to: '/hub/templates', label: 'Templates' },
      { to: '/hub/context-definitions', label: 'Context definitions' },
      { to: '/hub/definitions', label: 'Definitions' },
      { to: '/hub/preferences', label: 'Preferences' },
      { to: '/hub/caps', label: 'Frequency caps' },
      { to: '/hub/quiet-hours', label: 'Quiet hours' },
    ],
  },
  (area) => [
    createRoute({
      getParentRoute: () => area,
      path: '/',
      beforeLoad: () => {
        throw redirect({ to: '/hub/notifications', replace: true });
      },
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'notifications',
      component: lazyRouteComponent(() => import('./notifications.page.tsx'), 'NotificationsPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'notifications/$id',
      component: lazyRouteComponent(() => import('./notification.page.tsx'), 'NotificationPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'messages/$id',
      component: lazyRouteComponent(() => import('./message.page.tsx'), 'MessagePage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'channels',
      component: lazyRouteComponent(() => import('./channels.page.tsx'), 'ChannelsPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'delivery-services',
      component: lazyRouteComponent(() => import('./delivery-services.page.tsx'), 'DeliveryServicesPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'delivery-services/new',
      component: lazyRouteComponent(() => import('./delivery-service-new.page.tsx'), 'DeliveryServiceNewPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'templates/new',
      component: lazyRouteComponent(() => import('./template-new.page.tsx'), 'TemplateNewPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'delivery-services/$id',
      component: lazyRouteComponent(() => import('./delivery-service.page.tsx'), 'DeliveryServicePage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'templates',
      component: lazyRouteComponent(() => import('./templates.page.tsx'), 'TemplatesPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'templates/$id',
      component: lazyRouteComponent(() => import('./template.page.tsx'), 'TemplatePage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'context-definitions',
      component: lazyRouteComponent(() => import('./context-definitions.page.tsx'), 'ContextDefinitionsPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'context-definitions/$id',
      component: lazyRouteComponent(() => import('./context-definition.page.tsx'), 'ContextDefinitionPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'definitions',
      component: lazyRouteComponent(() => import('./definitions.page.tsx'), 'DefinitionsPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'definitions/$id',
      component: lazyRouteComponent(() => import('./definition.page.tsx'), 'DefinitionPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'snapshots/$id',
      component: lazyRouteComponent(() => import('./snapshot.page.tsx'), 'SnapshotPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'preferences',
      component: lazyRouteComponent(() => import('./preferences.page.tsx'), 'PreferencesPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'caps',
      component: lazyRouteComponent(() => import('./caps.page.tsx'), 'CapsPage'),
    }),
    createRoute({
      getParentRoute: () => area,
      path: 'quiet-hours',
      component: lazyRouteComponent(() => import('./quiet-hours.page.tsx'), 'QuietHoursPage'),
    }),
  ],
);
